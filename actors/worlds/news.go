package worlds

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// News is a world's lifetime as a follower hears it (the ProxyActor, which
// opens a world's port when it is made and closes it when it is closed).
type News struct {
	Name string
	Open bool // made; false: closed
}

// newsWait bounds how long the actor waits on a follower that does not
// read; past it the news is lost and the log says so.
const newsWait = 5 * time.Second

// Follow has ch hear every world made or closed from now on, until ctx is
// done, and answers the worlds open now. The actor waits on ch (up to
// newsWait): read it while following.
func (a *Actor) Follow(ctx context.Context, ch chan<- News) (open []string, err error) {
	return actor.Ask(ctx, a.mailbox, func(r chan []string) request { return follow{f: follower{ch: ch, done: ctx.Done()}, reply: r} })
}

// follower is who hears the worlds' news, until done.
type follower struct {
	ch   chan<- News
	done <-chan struct{}
}

// Make makes the world called name if it is not open (its context is made
// at once when a browser runs, else in the next one), without launching
// anything; made says it was new. A kept world gets the policy it keeps
// (or none is made: kept_guard.go).
func (a *Actor) Make(ctx context.Context, name string) (made bool, err error) {
	if err := CheckName(name); err != nil {
		return false, err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan guardedAnswer) request { return makeWorld{name: name, reply: r} })
	if err != nil {
		return false, err
	}
	return got.made, got.err
}

type (
	follow struct {
		f     follower
		reply chan []string
	}
	makeWorld struct {
		name  string
		reply chan guardedAnswer
	}
)

// handleFollowing answers the requests of this file; false: m is not one.
func (r *run) handleFollowing(m request) bool {
	switch m := m.(type) {
	case follow:
		r.a.followers = append(r.a.followers, m.f)
		names := make([]string, 0, len(r.a.book))
		for name := range r.a.book {
			names = append(names, name)
		}
		slices.Sort(names)
		m.reply <- names
	case makeWorld:
		w, made, err := r.bookEntry(m.name)
		if made && r.running {
			r.ensure(w, nil) // its first client finds its context made
		}
		m.reply <- guardedAnswer{made: made, err: err}
	default:
		return false
	}
	return true
}

// bookEntry is the world called name, made and told of if new, with the
// policy its name had (rehireGuard): a kept policy that cannot be read
// makes none.
func (r *run) bookEntry(name string) (*world, bool, error) { return r.makeEntry(name, nil) }

// makeEntry is bookEntry with the guard g when it is made (nil: the
// policy its name had).
func (r *run) makeEntry(name string, g *worldGuard) (*world, bool, error) {
	if w := r.a.book[name]; w != nil {
		return w, false, nil
	}
	if err := r.refuseNew(name); err != nil {
		return nil, false, err
	}
	w := newBookEntry(newWorld(name, r.a))
	if g != nil {
		w.guard = g
		r.publishGuard(w)
	} else if err := r.rehireGuard(w); err != nil {
		r.log.Error().Err(err).Str("world", name).Msg("the world was not made")
		return nil, false, err
	}
	if Kept(name) {
		r.storage.LoadProfile(w.store)
	}
	r.a.book[name] = w
	r.log.Info().Str("world", name).Bool("kept", w.store.Kept()).Msg("world opened")
	r.tellFollowers(News{Name: name, Open: true})
	return w, true, nil
}

// tellFollowers gives every follower the news, before the request that
// made it is answered: who asks the follower next finds it told.
func (r *run) tellFollowers(n News) {
	r.a.followers = slices.DeleteFunc(r.a.followers, func(f follower) bool {
		select {
		case <-f.done:
			return true
		default:
			return false
		}
	})
	for _, f := range r.a.followers {
		t := time.NewTimer(newsWait)
		select {
		case f.ch <- n:
		case <-f.done:
		case <-t.C:
			r.log.Error().Str("world", n.Name).Bool("open", n.Open).Msg(fmt.Sprintf("a follower of the worlds did not take their news within %s; news lost", newsWait))
		}
		t.Stop()
	}
}
