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
	return actor.Ask(ctx, a.mailbox, func(r chan []string) any { return follow{f: follower{ch: ch, done: ctx.Done()}, reply: r} })
}

// follower is who hears the worlds' news, until done.
type follower struct {
	ch   chan<- News
	done <-chan struct{}
}

// Make makes the world called name if it is not open (its context is made
// at once when a browser runs, else in the next one), without launching
// anything; made says it was new.
func (a *Actor) Make(ctx context.Context, name string) (made bool, err error) {
	if err := CheckName(name); err != nil {
		return false, err
	}
	return actor.Ask(ctx, a.mailbox, func(r chan bool) any { return makeWorld{name: name, reply: r} })
}

type (
	follow struct {
		f     follower
		reply chan []string
	}
	makeWorld struct {
		name  string
		reply chan bool
	}
)

// handleFollowing answers the requests of this file; false: m is not one.
func (r *run) handleFollowing(m any) bool {
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
		w, made := r.bookEntry(m.name)
		if made && r.running {
			r.ensure(w, nil) // its first client finds its context made
		}
		m.reply <- made
	default:
		return false
	}
	return true
}

// bookEntry is the world called name, made and told of if new.
func (r *run) bookEntry(name string) (*world, bool) {
	if w := r.a.book[name]; w != nil {
		return w, false
	}
	w := newBookEntry(newWorld(name, r.a))
	r.loadProfile(w)
	r.rehireGuard(w)
	r.a.book[name] = w
	r.log.Info().Str("world", name).Bool("kept", w.store.kept).Msg("world opened")
	r.tellFollowers(News{Name: name, Open: true})
	return w, true
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
