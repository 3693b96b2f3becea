package storage

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// Merge gives st to a world without a context in the running browser: it
// is what the world keeps, and its next context gets it.
func (r *Room) Merge(s *Store, st storagestate.State) {
	s.state = storagestate.Merge(s.state, st)
	r.keep(s)
}

// Give sets st into the world's context in the running browser (cookies
// first, all or nothing; then each origin's localStorage, on a page
// showing it now, else as the origin's next document loads), and into
// what it keeps. A world without a context there is given st by Merge;
// one whose context goes meanwhile answers ErrBrowserGone.
func (r *Room) Give(s *Store, st storagestate.State, then func(error)) {
	context := r.host.Context(s.of)
	if context == "" {
		then(ErrBrowserGone)
		return
	}
	setCookies := func(next func()) {
		if len(st.Cookies) == 0 {
			next()
			return
		}
		r.host.Call("", "Storage.setCookies", map[string]any{"browserContextId": context, "cookies": st.CDPCookies()}, func(_ json.RawMessage, err error) {
			if err != nil {
				then(fmt.Errorf("%w: the browser refused its cookies: %w", ErrBadSeed, err))
				return
			}
			next()
		})
	}
	setCookies(func() {
		if r.host.Context(s.of) != context {
			then(ErrBrowserGone)
			return
		}
		s.state = storagestate.Merge(s.state, st)
		r.keep(s)
		r.host.Targets(func(all []Target, err error) {
			shown := map[string]string{}
			for _, t := range all {
				if o, oerr := storagestate.URLOrigin(t.URL); oerr == nil && t.Type == "page" && t.Context == context {
					shown[o] = t.ID
				}
			}
			for _, o := range st.Origins {
				items := itemsOf(o)
				if target, ok := shown[o.Origin]; ok && err == nil {
					r.setItems(s, target, o.Origin, items)
					continue
				}
				seeds := s.seeds[o.Origin]
				if seeds == nil {
					seeds = map[string]string{}
					s.seeds[o.Origin] = seeds
				}
				for k, v := range items {
					seeds[k] = v
				}
			}
			r.reseed(s)
			then(nil)
		})
	})
}

// setItems sets an origin's localStorage on a page showing it.
func (r *Room) setItems(s *Store, target, origin string, items map[string]string) {
	r.pageSession(s, target, func(session string, err error) {
		if err != nil {
			return
		}
		id := map[string]any{"securityOrigin": origin, "isLocalStorage": true}
		for k, v := range items {
			r.host.Call(session, "DOMStorage.setDOMStorageItem", map[string]any{"storageId": id, "key": k, "value": v}, func(_ json.RawMessage, err error) {
				if err != nil {
					r.log.Warn().Err(err).Str("origin", origin).Msg("a localStorage key was not set on the page showing its origin")
				}
			})
		}
	})
}
