package storage

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// Read reads the world's storage from its context in the running
// browser, then runs then (if not nil): its cookies, and the localStorage
// of every origin its pages show (origins still to get their seed aside:
// their page has not what the world keeps for them yet). Origins no page
// shows keep what was known of them. A kept world is then saved if it
// changed. A crash loses what changed since the last read. The read is
// fresh (a client gone, a close, an export, the stop): see readStorage.
func (r *Room) Read(s *Store, then func()) { r.readStorage(s, then, true) }

// ReadDue is the tick's read of a world with clients at now, unless its
// last read puts it off (readEnds) or one is under way.
func (r *Room) ReadDue(s *Store, now time.Time) {
	if s.tickReadDue(now) {
		r.readStorage(s, nil, false)
	}
}

// readStorage is Read; a read that is not fresh (the tick's) joins one
// under way, a fresh one starts anew, what was under way answering
// nothing more: a read begun before the change it must see, or one held
// by a page that answers nothing, must not stand for it.
func (r *Room) readStorage(s *Store, then func(), fresh bool) {
	if s.WaitsForRestore(func() { r.readStorage(s, then, fresh) }) {
		return // a read now would find the context without the world's cookies, and keep that
	}
	if then != nil {
		s.readers = append(s.readers, then)
	}
	context := r.host.Context(s.of)
	if context == "" {
		r.readDone(s, nil)
		return
	}
	if s.reading && !fresh {
		return
	}
	s.readBegins(time.Now())
	seq := s.readSeq
	// A read that expired (ExpireRead) is over: its late answers change
	// nothing.
	stale := func() bool { return s.readSeq != seq || r.host.Context(s.of) != context }
	r.host.Call("", "Storage.getCookies", map[string]string{"browserContextId": context}, func(result json.RawMessage, err error) {
		if s.readSeq != seq {
			return
		}
		var res struct {
			Cookies json.RawMessage `json:"cookies"`
		}
		if err != nil || json.Unmarshal(result, &res) != nil || res.Cookies == nil || r.host.Context(s.of) != context {
			r.readDone(s, nil)
			return
		}
		cookies := s.lastCookies
		if cookies == nil || !bytes.Equal(res.Cookies, s.cookiesRead) {
			cookies = storagestate.FromCDP(res.Cookies)
			storagestate.State{Cookies: cookies}.Sort() // as the read's end sorts them: equal when unchanged
			s.cookiesRead, s.lastCookies = bytes.Clone(res.Cookies), cookies
		}
		// Kept at once: what a page's origins show may take longer.
		s.state = storagestate.State{Cookies: cookies, Origins: s.state.Origins}
		r.keep(s)
		r.host.Targets(func(all []Target, err error) {
			if s.readSeq != seq {
				return
			}
			if err != nil || r.host.Context(s.of) != context {
				r.readDone(s, nil)
				return
			}
			r.keepPages(all)
			shown := map[string]string{} // origin → a page showing it
			for _, t := range all {
				origin, err := storagestate.URLOrigin(t.URL)
				if t.Type != "page" || t.Context != context || err != nil || s.seeds[origin] != nil {
					continue
				}
				shown[origin] = t.ID
			}
			r.readOrigins(s, shown, func(live map[string]map[string]string) {
				if stale() {
					if s.readSeq == seq {
						r.readDone(s, nil)
					}
					return
				}
				st := storagestate.State{Cookies: cookies, Origins: []storagestate.Origin{}}
				for _, o := range s.state.Origins {
					if _, read := live[o.Origin]; !read {
						st.Origins = append(st.Origins, o)
					}
				}
				for origin, items := range live {
					if len(items) > 0 {
						st.Origins = append(st.Origins, storagestate.OriginOf(origin, items))
					}
				}
				st.Sort()
				r.readDone(s, &st)
			})
		})
	})
}

// readOrigins reads the localStorage of each origin on a page showing it
// (s: the world whose pages they are; nil: the user's browser's); an
// origin that could not be read is not in the answer.
func (r *Room) readOrigins(s *Store, shown map[string]string, then func(map[string]map[string]string)) {
	live := map[string]map[string]string{}
	left := len(shown)
	if left == 0 {
		then(live)
		return
	}
	done := func() {
		if left--; left == 0 {
			then(live)
		}
	}
	for origin, target := range shown {
		r.pageSession(s, target, func(session string, err error) {
			if err != nil {
				done()
				return
			}
			params := map[string]any{"storageId": map[string]any{"securityOrigin": origin, "isLocalStorage": true}}
			r.host.Call(session, "DOMStorage.getDOMStorageItems", params, func(result json.RawMessage, err error) {
				var res struct {
					Entries [][]string `json:"entries"`
				}
				if err == nil && json.Unmarshal(result, &res) == nil {
					items := make(map[string]string, len(res.Entries))
					for _, e := range res.Entries {
						if len(e) == 2 {
							items[e[0]] = e[1]
						}
					}
					live[origin] = items
				}
				done()
			})
		})
	}
}

// readDone ends a read: st (nil: nothing read) becomes the world's
// storage, a kept world is saved, and the readers go on.
func (r *Room) readDone(s *Store, st *storagestate.State) {
	s.readEnds(time.Now())
	if st != nil {
		s.state = *st
	}
	r.keep(s)
	readers := s.readers
	s.readers = nil
	for _, then := range readers {
		then()
	}
}

// readWait bounds a read of a world's storage: a page that answers
// nothing (one mid-navigation, or held for a debugger) must not hold a
// close, an export or the stop for long. What was read before stays.
const readWait = 3 * time.Second

// ExpireRead ends the world's read under way at now if it has been for
// longer than readWait (the actor's tick asks it of every world).
func (r *Room) ExpireRead(s *Store, now time.Time) {
	if s.reading && now.Sub(s.readSince) > readWait {
		s.readSeq++
		r.log.Warn().Str("world", s.of.Name()).Msg("the world's storage was not read in time; what was read before stays")
		r.readDone(s, nil)
	}
}
