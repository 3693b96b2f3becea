package storage

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// onStorageChanged keeps a change a world's page made to its origin's
// localStorage (DOMStorage events of the room's page sessions): what a
// page signs out of and then closes at once is not kept signed in.
func (r *Room) onStorageChanged(session, method string, raw json.RawMessage) {
	ps := r.pageOfSession(session)
	if ps == nil || ps.world == nil || r.host.Context(ps.world.of) == "" {
		return // a page of the user's browser, or of a world closed or gone from its browser
	}
	var p struct {
		StorageID struct {
			SecurityOrigin string `json:"securityOrigin"`
			StorageKey     string `json:"storageKey"`
			IsLocalStorage bool   `json:"isLocalStorage"`
		} `json:"storageId"`
		Key      string `json:"key"`
		NewValue string `json:"newValue"`
	}
	if json.Unmarshal(raw, &p) != nil || !p.StorageID.IsLocalStorage {
		return
	}
	origin := p.StorageID.SecurityOrigin
	if origin == "" {
		if strings.Contains(p.StorageID.StorageKey, "^") {
			return // a third-party partition: not an origin's own storage
		}
		origin = strings.TrimSuffix(p.StorageID.StorageKey, "/")
	}
	origin, err := storagestate.CanonicalOrigin(origin)
	if err != nil {
		return
	}
	s := ps.world
	items := map[string]string{}
	at := slices.IndexFunc(s.state.Origins, func(o storagestate.Origin) bool { return o.Origin == origin })
	if at >= 0 {
		items = itemsOf(s.state.Origins[at])
	}
	switch method {
	case "DOMStorage.domStorageItemAdded", "DOMStorage.domStorageItemUpdated":
		items[p.Key] = p.NewValue
	case "DOMStorage.domStorageItemRemoved":
		delete(items, p.Key)
	case "DOMStorage.domStorageItemsCleared":
		clear(items)
	}
	s.state = withOrigin(s.state, origin, items)
	r.keep(s)
}

// withOrigin is st with origin's localStorage replaced by items (none:
// the origin leaves it). st is not changed.
func withOrigin(st storagestate.State, origin string, items map[string]string) storagestate.State {
	out := storagestate.State{Cookies: st.Cookies, Origins: make([]storagestate.Origin, 0, len(st.Origins)+1)}
	for _, o := range st.Origins {
		if o.Origin != origin {
			out.Origins = append(out.Origins, o)
		}
	}
	if len(items) > 0 {
		out.Origins = append(out.Origins, storagestate.OriginOf(origin, items))
	}
	// Only the origins: the cookies are st's, shared with who holds st
	// (the ProfilesActor), and already in order.
	slices.SortFunc(out.Origins, func(a, b storagestate.Origin) int { return cmp.Compare(a.Origin, b.Origin) })
	return out
}

// BeforeClose reads the localStorage of the origin a page of the world
// (target) shows, before its client closes it, then runs then once it is
// the world's. The relay asks it (through the actor) for
// Target.closeTarget.
func (r *Room) BeforeClose(s *Store, target string, then func()) {
	context := r.host.Context(s.of)
	r.host.Call("", "Target.getTargetInfo", map[string]string{"targetId": target}, func(result json.RawMessage, err error) {
		var res struct {
			TargetInfo Target `json:"targetInfo"`
		}
		origin := ""
		if err == nil && json.Unmarshal(result, &res) == nil {
			origin, err = storagestate.URLOrigin(res.TargetInfo.URL)
		}
		if err != nil || res.TargetInfo.Context != context || s.seeds[origin] != nil {
			then()
			return
		}
		r.readOrigins(s, map[string]string{origin: target}, func(live map[string]map[string]string) {
			if items, read := live[origin]; read && r.host.Context(s.of) == context {
				s.state = withOrigin(s.state, origin, items)
				r.keep(s)
			}
			then()
		})
	})
}
