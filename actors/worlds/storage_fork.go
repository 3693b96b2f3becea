package worlds

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// readUsersBrowser reads, from the user's own browser's default context
// (the instance is the user's browser: --attach), the cookies a request
// to one of origins would carry and those origins' localStorage, from the
// user's tabs showing them. Nothing is written there and no tab is opened:
// an origin no tab shows gives its cookies alone (a note says so).
func (r *run) readUsersBrowser(origins []string, then func(storagestate.State, []string, error)) {
	fail := func(err error) {
		then(storagestate.State{}, nil, fmt.Errorf("reading your browser's sign-ins: %w", err))
	}
	r.call("Storage.getCookies", nil, func(a answer) {
		var res struct {
			Cookies json.RawMessage `json:"cookies"`
		}
		if err := a.err(); err != nil {
			fail(err)
			return
		}
		if err := json.Unmarshal(a.Result, &res); err != nil {
			fail(err)
			return
		}
		st := storagestate.State{Cookies: storagestate.FromCDP(res.Cookies)}.ForOrigins(origins)
		r.call("Target.getBrowserContexts", nil, func(a answer) {
			var ctxs struct {
				BrowserContextIDs []string `json:"browserContextIds"`
			}
			if err := a.err(); err != nil || json.Unmarshal(a.Result, &ctxs) != nil {
				fail(errOr(a.err(), "no browserContextIds in the answer"))
				return
			}
			other := map[string]bool{}
			for _, id := range ctxs.BrowserContextIDs {
				other[id] = true // not the default context: an incognito window, a world
			}
			r.targets(func(all []Target, err error) {
				if err != nil {
					fail(err)
					return
				}
				want := map[string]bool{}
				for _, o := range origins {
					want[o] = true
				}
				shown := map[string]string{}
				for _, t := range all {
					if o, oerr := storagestate.URLOrigin(t.URL); oerr == nil && t.Type == "page" && !other[t.Context] && want[o] {
						shown[o] = t.ID
					}
				}
				r.readOrigins(nil, shown, func(live map[string]map[string]string) {
					r.leavePages(shown)
					var notes []string
					for _, o := range origins {
						items, read := live[o]
						switch {
						case !read:
							notes = append(notes, fmt.Sprintf("%s: cookies only; no tab of your browser shows it, so its localStorage was not read (open one and fork again to copy it)", o))
						case len(items) > 0:
							st.Origins = append(st.Origins, storagestate.OriginOf(o, items))
						}
					}
					st.Sort()
					then(st, notes, nil)
				})
			})
		})
	})
}

// leavePages detaches the actor from the user's tabs it read.
func (r *run) leavePages(shown map[string]string) {
	for _, target := range shown {
		if ps := r.pages[target]; ps != nil && ps.id != "" {
			delete(r.pages, target)
			r.call("Target.detachFromTarget", map[string]string{"sessionId": ps.id}, func(answer) {})
		}
	}
}
