package worlds

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// handleStorage answers the storage requests; false: m is not one.
func (r *run) handleStorage(m request) bool {
	switch m := m.(type) {
	case seedWorld:
		r.seedWorld(m)
	case exportWorld:
		r.export(m)
	case forgetWorld:
		r.forgetWorld(m)
	case keepAll:
		r.keepAll(m.reply)
	default:
		return false
	}
	return true
}

// seedWorld resolves the seed whole (a state, a source world, the user's
// browser), then makes the world if new and gives it the seed.
func (r *run) seedWorld(m seedWorld) {
	fail := func(err error) { m.reply <- seededAnswer{err: err} }
	for _, o := range append(slices.Clone(m.seed.FromUserBrowser), m.seed.Origins...) {
		if c, err := storagestate.CanonicalOrigin(o); err != nil || c != o {
			fail(fmt.Errorf("%w: %s", ErrBadOrigin, errOr(err, fmt.Sprintf("%q is not in origin form (%s)", o, c))))
			return
		}
	}
	if len(m.seed.FromUserBrowser) > 0 && !r.a.spec.UsersBrowser {
		fail(ErrNotUsersBrowser)
		return
	}
	if m.seed.Browser.Generation != 0 {
		if err := r.adopt(m.seed.Browser); err != nil {
			fail(err)
			return
		}
	}
	if m.seed.FromWorld == m.name {
		fail(fmt.Errorf("%w: a world cannot be forked from itself", ErrBadSeed))
		return
	}
	r.resolveSeed(m.seed, func(st storagestate.State, notes []string, err error) {
		if err != nil {
			fail(err)
			return
		}
		w, made, err := r.bookEntry(m.name)
		if err != nil {
			fail(err)
			return
		}
		r.give(w, st, func(err error) {
			cookies, origins := st.Counts()
			m.reply <- seededAnswer{seeded: Seeded{Made: made, Cookies: cookies, Origins: origins, Notes: notes}, err: err}
		})
	})
}

// Errors of a seed.
var (
	// ErrBadOrigin: an origin that is not scheme://host[:port].
	ErrBadOrigin = errors.New("not an origin")
	// ErrBadSeed: a seed that cannot be given (the storage room's).
	ErrBadSeed = storage.ErrBadSeed
)

// resolveSeed is the state a seed gives: its state, what the source
// world has (of Origins when given), what the user's browser has of
// FromUserBrowser, merged in that order.
func (r *run) resolveSeed(s Seed, then func(storagestate.State, []string, error)) {
	st := storage.Empty()
	if s.State != nil {
		st = storagestate.Merge(st, *s.State)
	}
	fromUser := func(st storagestate.State) {
		if len(s.FromUserBrowser) == 0 {
			then(st, nil, nil)
			return
		}
		r.storage.ReadUsersBrowser(s.FromUserBrowser, func(user storagestate.State, notes []string, err error) {
			if err != nil {
				then(storagestate.State{}, nil, err)
				return
			}
			then(storagestate.Merge(st, user), notes, nil)
		})
	}
	if s.FromWorld == "" {
		fromUser(st)
		return
	}
	r.storageOf(s.FromWorld, func(src storagestate.State, err error) {
		if err != nil {
			then(storagestate.State{}, nil, fmt.Errorf("%w: forking from world %s: %w", ErrBadSeed, s.FromWorld, err))
			return
		}
		if len(s.Origins) > 0 {
			src = src.ForOrigins(s.Origins)
		}
		fromUser(storagestate.Merge(st, src))
	})
}

// storageOf is the storage of the world called name: read now from its
// context when it has one, else what it keeps.
func (r *run) storageOf(name string, then func(storagestate.State, error)) {
	if w := r.a.book[name]; w != nil {
		r.storage.Read(w.store, func() { then(w.store.State(), nil) })
		return
	}
	if r.a.spec.Profiles != nil && Kept(name) {
		ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait)
		defer cancel()
		st, found, err := r.a.spec.Profiles.Load(ctx, name)
		if err != nil || found {
			then(st, err)
			return
		}
	}
	then(storagestate.State{}, fmt.Errorf("%w %q: it is neither open nor kept; %s", ErrUnknownWorld, name, r.known()))
}

// give sets st into the world: into its context when it has one (the
// storage room's Give), else into what it keeps, its context then made in
// the running browser, seeded.
func (r *run) give(w *world, st storagestate.State, then func(error)) {
	if !r.current(w) {
		r.storage.Merge(w.store, st)
		if r.running && w.making == 0 {
			r.ensure(w, nil) // made in the running browser now, seeded
		}
		then(nil)
		return
	}
	r.storage.Give(w.store, st, then) // storage.ErrBrowserGone is ErrBrowserGone: the context went with its browser (or the world)
}

// export answers a world's storage.
func (r *run) export(m exportWorld) {
	r.storageOf(m.name, func(st storagestate.State, err error) {
		m.reply <- exported{state: st, err: err}
	})
}

// forgetWorld closes the world if it is open, then deletes its profile
// and its journal.
func (r *run) forgetWorld(m forgetWorld) {
	open := r.a.book[m.name] != nil
	drop := func() {
		delete(r.a.retired, m.name) // closed: made again, it is as new
		forgot := false
		if r.a.spec.Profiles != nil {
			ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait)
			defer cancel()
			var err error
			if forgot, err = r.a.spec.Profiles.Forget(ctx, m.name); err != nil {
				m.reply <- err
				return
			}
		}
		journaled := false
		if j := r.a.spec.Journal; j != nil {
			ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait) // a budget of its own
			defer cancel()
			var err error
			if journaled, err = j.Forget(ctx, m.name); err != nil {
				m.reply <- err
				return
			}
		}
		// A closed world that left only a journal is forgotten too.
		if !open && !forgot && !journaled {
			m.reply <- fmt.Errorf("%w %q: it is neither open nor kept, and has no journal; %s", ErrUnknownWorld, m.name, r.known())
			return
		}
		m.reply <- nil
	}
	if !open {
		drop()
		return
	}
	r.a.book[m.name].store.Unkeep() // nothing of it is saved again
	r.closeNamed(m.name, func(error) { drop() })
}

// keepAll reads every kept world from the running browser, hands each to
// the profiles, and answers once all are.
func (r *run) keepAll(reply chan error) {
	var open []*world
	for _, w := range r.a.book {
		if w.store.Kept() {
			open = append(open, w)
		}
	}
	left := len(open)
	if left == 0 {
		reply <- nil
		return
	}
	for _, w := range open {
		r.storage.Read(w.store, func() {
			if left--; left == 0 {
				reply <- nil
			}
		})
	}
}

// keptInfo lists the kept worlds' files.
func (r *run) keptInfo() map[string]profiles.Kept {
	out := map[string]profiles.Kept{}
	if r.a.spec.Profiles == nil {
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait)
	defer cancel()
	list, err := r.a.spec.Profiles.List(ctx)
	if err != nil {
		r.log.Warn().Err(err).Msg("the kept worlds were not listed")
	}
	for _, k := range list {
		out[k.Name] = k
	}
	return out
}
