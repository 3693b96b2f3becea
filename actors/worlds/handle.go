package worlds

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// handle answers a request from outside.
func (r *run) handle(m request) {
	if r.handleFollowing(m) || r.handleStorage(m) || r.handleGuard(m) || r.handleRoom(m) {
		return
	}
	switch m := m.(type) {
	case openWorld:
		r.open(m)
	case pageAsk:
		r.onPageAsk(m)
	case contextMade:
		if w := r.entry(m.world); w != nil && r.current(w) && w.gen == m.gen {
			w.made[m.context] = true
			w.publish()
		}
		m.reply <- struct{}{}
	case contextDisposed:
		if w := r.entry(m.world); w != nil && w.gen == m.gen && w.made[m.context] {
			delete(w.made, m.context)
			w.publish()
		}
	case closePages:
		r.closePages(m)
	case listTargets:
		r.listTargets(m)
	case newPage:
		r.newPage(m)
	case clientJoined:
		w := r.entry(m.world)
		if w == nil {
			m.client.Close(closeWorldCode, "world "+m.world.name+" was closed")
			return
		}
		w.clients[m.client] = true
	case clientLeft:
		if w := r.entry(m.world); w != nil {
			delete(w.clients, m.client)
			r.storage.Read(w.store, nil) // what the client set before it left
		}
	case listWorlds:
		r.list(m.reply)
	case ownerOf:
		owner := ""
		for name, w := range r.a.book {
			if w.owns(m.context) {
				owner = name
			}
		}
		m.reply <- owner
	case closeWorld:
		r.close(m)
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

// closeWorldCode closes the connections of a closed world's clients: going
// away, as a browser that ends.
const closeWorldCode = 1001

// entry is the book's entry of a handle; nil when its world was closed.
func (r *run) entry(h *World) *world {
	if w := r.a.book[h.name]; w != nil && w.handle == h {
		return w
	}
	return nil
}

// open answers a world and its context in the browser the request names.
func (r *run) open(m openWorld) {
	var w *world
	if m.world != nil {
		if w = r.entry(m.world); w == nil {
			m.reply <- opened{err: fmt.Errorf("%w: %s", ErrWorldClosed, m.world.name)}
			return
		}
	} else {
		var err error
		if w, _, err = r.bookEntry(m.name); err != nil {
			m.reply <- opened{err: err}
			return
		}
	}
	if err := r.adopt(m.ep); err != nil {
		m.reply <- opened{world: w.handle, err: err}
		return
	}
	r.ensure(w, func(context string, err error) { m.reply <- opened{world: w.handle, context: context, err: err} })
}

// known names the open worlds, for an error.
func (r *run) known() string {
	names := make([]string, 0, len(r.a.book))
	for name := range r.a.book {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "no world is open"
	}
	return "open worlds: " + strings.Join(names, ", ")
}

// close ends a world: a kept world's storage is read a last time, its
// clients' connections close, its contexts are disposed with their pages,
// and its name is free.
func (r *run) close(m closeWorld) {
	r.closeNamed(m.name, func(err error) { m.reply <- err })
}

func (r *run) closeNamed(name string, done func(error)) {
	w := r.a.book[name]
	if w == nil {
		done(fmt.Errorf("%w %q; %s", ErrUnknownWorld, name, r.known()))
		return
	}
	if r.current(w) && w.store.ClosingRead() { // a kept world: one last read, then the close
		r.storage.Read(w.store, func() {
			if r.a.book[name] != w {
				done(nil) // closed meanwhile
				return
			}
			r.closeNamed(name, done)
		})
		return
	}
	delete(r.a.book, name)
	r.tellFollowers(News{Name: name})
	for c := range w.clients {
		c.Close(closeWorldCode, "world "+name+" was closed")
	}
	w.settle("", fmt.Errorf("%w: %s", ErrWorldClosed, name))
	var contexts []string
	if r.current(w) {
		contexts = append(slices.Collect(maps.Keys(w.made)), w.context)
	}
	w.forget()
	r.retireGuard(w)
	if r.a.spec.Journal != nil {
		r.a.spec.Journal.Closed(name)
	}
	r.log.Info().Str("world", name).Int("clients", len(w.clients)).Msg("world closed")
	r.dispose(contexts, func() { done(nil) })
}

// dispose disposes contexts, then runs then.
func (r *run) dispose(contexts []string, then func()) {
	if len(contexts) == 0 {
		then()
		return
	}
	left := len(contexts)
	for _, id := range contexts {
		r.call("Target.disposeBrowserContext", map[string]string{"browserContextId": id}, func(a answer) {
			if err := a.err(); err != nil {
				r.log.Debug().Err(err).Str("context", id).Msg("a world's context was not disposed")
			}
			if left--; left == 0 {
				then()
			}
		})
	}
}
