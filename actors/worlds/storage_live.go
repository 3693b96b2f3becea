package worlds

import (
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
	out.Sort()
	return out
}
