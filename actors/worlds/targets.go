package worlds

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// targets asks the running browser for every target, then runs then.
func (r *run) targets(then func([]Target, error)) {
	r.call("Target.getTargets", nil, func(a answer) {
		var res struct {
			TargetInfos []Target `json:"targetInfos"`
		}
		if err := a.err(); err != nil {
			then(nil, err)
			return
		}
		if err := json.Unmarshal(a.Result, &res); err != nil {
			then(nil, fmt.Errorf("reading the browser's targets: %w", err))
			return
		}
		then(res.TargetInfos, nil)
	})
}

// worldFor answers a request naming a world and a browser: the world's
// entry once its context is made there, or the reason there is none.
func (r *run) worldFor(h *World, ep browser.Endpoint, then func(*world, error)) {
	w := r.entry(h)
	if w == nil {
		then(nil, fmt.Errorf("%w: %s", ErrWorldClosed, h.name))
		return
	}
	if err := r.adopt(ep); err != nil {
		then(nil, err)
		return
	}
	r.ensure(w, func(_ string, err error) { then(w, err) })
}

func (r *run) listTargets(m listTargets) {
	r.worldFor(m.world, m.ep, func(w *world, err error) {
		if err != nil {
			m.reply <- targetsAnswer{err: err}
			return
		}
		r.targets(func(all []Target, err error) {
			var mine []Target
			for _, t := range all {
				if w.owns(t.Context) {
					mine = append(mine, t)
				}
			}
			m.reply <- targetsAnswer{targets: mine, err: err}
		})
	})
}

func (r *run) newPage(m newPage) {
	r.worldFor(m.world, m.ep, func(w *world, err error) {
		if err != nil {
			m.reply <- pageAnswer{err: err}
			return
		}
		url := m.url
		if url == "" {
			url = "about:blank"
		}
		// A page for a kept origin opens blank, is prepared, then goes
		// there: its first document of the origin gets its localStorage.
		_, aimed := storagestate.URLOrigin(url)
		prepare := w.store.Seeding() && aimed == nil
		first := url
		if prepare {
			first = "about:blank"
		}
		r.call("Target.createTarget", map[string]string{"url": first, "browserContextId": w.context}, func(a answer) {
			var res struct {
				TargetID string `json:"targetId"`
			}
			if err := a.err(); err != nil {
				m.reply <- pageAnswer{err: err}
				return
			}
			_ = json.Unmarshal(a.Result, &res)
			if !prepare {
				m.reply <- pageAnswer{target: res.TargetID}
				return
			}
			r.storage.Navigate(w.store, res.TargetID, url, func(err error) {
				m.reply <- pageAnswer{target: res.TargetID, err: err}
			})
		})
	})
}

// closePages is a world client's Browser.close: the world's pages close and
// the contexts its clients made are disposed; its own context stays, with
// its cookies. A browser that is gone took the pages with it.
func (r *run) closePages(m closePages) {
	w := r.entry(m.world)
	if w == nil || r.adopt(m.ep) != nil || !r.current(w) {
		m.reply <- nil
		return
	}
	r.targets(func(all []Target, err error) {
		if err != nil {
			m.reply <- err
			return
		}
		var pages []string
		for _, t := range all {
			if t.Type == "page" && t.Context == w.context {
				pages = append(pages, t.ID)
			}
		}
		made := make([]string, 0, len(w.made))
		for id := range w.made {
			made = append(made, id)
		}
		clear(w.made)
		w.publish()
		r.log.Info().Str("world", w.Name()).Int("pages", len(pages)).Int("contexts", len(made)).Msg("a client of the world closed its browser: the world's pages close")
		r.closeTargets(pages, func() { r.dispose(made, func() { m.reply <- nil }) })
	})
}

// closeTargets closes targets, then runs then once the browser lists none
// of them: Chromium answers Target.closeTarget when the close has begun, so a
// client's Browser.close answered at once would still find its pages.
func (r *run) closeTargets(ids []string, then func()) {
	if len(ids) == 0 {
		then()
		return
	}
	left := len(ids)
	for _, id := range ids {
		r.call("Target.closeTarget", map[string]string{"targetId": id}, func(answer) {
			if left--; left == 0 {
				r.untilGone(ids, time.Now().Add(closeWait), then)
			}
		})
	}
}

// closeWait bounds the wait for closed targets to be gone; closePoll is how
// often it asks.
const (
	closeWait = 2 * time.Second
	closePoll = 20 * time.Millisecond
)

// untilGone runs then once the browser lists none of ids, or at deadline.
func (r *run) untilGone(ids []string, deadline time.Time, then func()) {
	r.targets(func(all []Target, err error) {
		listed := slices.ContainsFunc(all, func(t Target) bool { return slices.Contains(ids, t.ID) })
		if err != nil || !listed || time.Now().After(deadline) {
			then()
			return
		}
		r.after(closePoll, func() { r.untilGone(ids, deadline, then) })
	})
}

// list reports every open world with its clients and pages, and every
// kept world with its file.
func (r *run) list(reply chan []Summary) {
	kept := r.keptInfo()
	out := make([]Summary, 0, len(r.a.book)+len(kept))
	for _, w := range r.a.book {
		s := Summary{Name: w.Name(), Clients: len(w.clients), Open: true, Kept: w.store.Kept()}
		if r.current(w) {
			s.Context = w.context
		}
		s.Policy = w.policyInfo()
		if k, ok := kept[w.Name()]; ok && w.store.Kept() && !k.Saved.IsZero() {
			s.KeptInfo = &KeptInfo{Bytes: k.Bytes, Saved: k.Saved}
		}
		out = append(out, s)
	}
	for name, k := range kept {
		if r.a.book[name] == nil {
			s := Summary{Name: name, Kept: true, Policy: keptPolicy(k.Policy)}
			if !k.Saved.IsZero() { // a policy alone is kept before any storage
				s.KeptInfo = &KeptInfo{Bytes: k.Bytes, Saved: k.Saved}
			}
			out = append(out, s)
		}
	}
	sortSummaries(out)
	if len(out) == 0 || !r.running {
		reply <- out
		return
	}
	r.targets(func(all []Target, err error) {
		for i := range out {
			w := r.a.book[out[i].Name]
			for _, t := range all {
				if w != nil && t.Type == "page" && w.owns(t.Context) {
					out[i].Pages++
				}
			}
		}
		reply <- out
	})
}

func sortSummaries(s []Summary) {
	slices.SortFunc(s, func(a, b Summary) int { return cmp.Compare(a.Name, b.Name) })
}
