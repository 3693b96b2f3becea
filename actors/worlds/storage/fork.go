package storage

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// ReadUsersBrowser reads, from the user's own browser's default context
// (the instance is the user's browser: --attach), the cookies a request
// to one of origins would carry and those origins' localStorage, from the
// user's tabs showing them. Nothing is written there and no tab is opened:
// an origin no tab shows gives its cookies alone (a note says so).
func (r *Room) ReadUsersBrowser(origins []string, then func(storagestate.State, []string, error)) {
	fail := func(err error) {
		then(storagestate.State{}, nil, fmt.Errorf("reading your browser's sign-ins: %w", err))
	}
	r.host.Call("", "Storage.getCookies", nil, func(result json.RawMessage, err error) {
		var res struct {
			Cookies json.RawMessage `json:"cookies"`
		}
		if err != nil {
			fail(err)
			return
		}
		if err := json.Unmarshal(result, &res); err != nil {
			fail(err)
			return
		}
		st := storagestate.State{Cookies: storagestate.FromCDP(res.Cookies)}.ForOrigins(origins)
		r.host.Call("", "Target.getBrowserContexts", nil, func(result json.RawMessage, err error) {
			var ctxs struct {
				BrowserContextIDs []string `json:"browserContextIds"`
			}
			if err == nil && json.Unmarshal(result, &ctxs) != nil {
				err = errors.New("no browserContextIds in the answer")
			}
			if err != nil {
				fail(err)
				return
			}
			other := map[string]bool{}
			for _, id := range ctxs.BrowserContextIDs {
				other[id] = true // not the default context: an incognito window, a world
			}
			r.host.Targets(func(all []Target, err error) {
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

// leavePages detaches the room from the user's tabs it read.
func (r *Room) leavePages(shown map[string]string) {
	for _, target := range shown {
		if ps := r.pages[target]; ps != nil && ps.id != "" {
			delete(r.pages, target)
			r.host.Call("", "Target.detachFromTarget", map[string]string{"sessionId": ps.id}, ignore)
		}
	}
}
