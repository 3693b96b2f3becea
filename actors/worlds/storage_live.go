package worlds

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// onStorageChanged keeps a change a world's page made to its origin's
// localStorage (DOMStorage events of the actor's page sessions): what a
// page signs out of and then closes at once is not kept signed in.
func (r *run) onStorageChanged(session, method string, raw json.RawMessage) {
	ps := r.pageOfSession(session)
	if ps == nil || ps.world == nil || r.entry(ps.world.handle) != ps.world || !r.current(ps.world) {
		return
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
	w := ps.world
	items := map[string]string{}
	at := slices.IndexFunc(w.store.state.Origins, func(o storagestate.Origin) bool { return o.Origin == origin })
	if at >= 0 {
		items = itemsOf(w.store.state.Origins[at])
	}
	switch method {
	case "DOMStorage.domStorageItemAdded", "DOMStorage.domStorageItemUpdated":
		items[p.Key] = p.NewValue
	case "DOMStorage.domStorageItemRemoved":
		delete(items, p.Key)
	case "DOMStorage.domStorageItemsCleared":
		clear(items)
	}
	w.store.state = withOrigin(w.store.state, origin, items)
	r.keep(w)
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
// shows, before its client closes it, answering once it is the world's
// (or prepareTimeout passed). The relay asks it for Target.closeTarget.
func (w *World) BeforeClose(ctx context.Context, gen int, target string) {
	w.askAboutPage(ctx, pageAsk{gen: gen, target: target, closing: true})
}

func (r *run) onBeforeClose(w *world, m pageAsk) {
	context := w.context
	r.call("Target.getTargetInfo", map[string]string{"targetId": m.target}, func(a answer) {
		var res struct {
			TargetInfo Target `json:"targetInfo"`
		}
		origin, err := "", a.err()
		if err == nil && json.Unmarshal(a.Result, &res) == nil {
			origin, err = storagestate.URLOrigin(res.TargetInfo.URL)
		}
		if err != nil || res.TargetInfo.Context != context || w.store.seeds[origin] != nil {
			m.reply <- struct{}{}
			return
		}
		r.readOrigins(w, map[string]string{origin: m.target}, func(live map[string]map[string]string) {
			if items, read := live[origin]; read && w.context == context {
				w.store.state = withOrigin(w.store.state, origin, items)
				r.keep(w)
			}
			m.reply <- struct{}{}
		})
	})
}
