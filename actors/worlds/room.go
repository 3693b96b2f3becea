package worlds

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The instance's room for worlds: at most Spec.MaxWorlds open at once.
// Only the open ones count (the book's); a kept world closed is on disk
// alone and takes no room until it is opened again.

// ErrFull refuses a new world while the instance has Spec.MaxWorlds open;
// a world of a name already open is still found.
var ErrFull = worldapi.ErrFull

// FixesFull are the ways past ErrFull: close a world, or start the
// coordinator with a higher limit.
var FixesFull = []remedy.Fix{{Do: remedy.CloseWorld}, {Do: remedy.AtStart, Setting: remedy.MaxWorlds}}

// Room says how many worlds are open and the most the instance allows
// (0: no limit). It asks the actor, which owns the book: cheap, never the
// browser.
func (a *Actor) Room(ctx context.Context) (open, max int, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan roomAnswer) request { return askRoom{reply: r} })
	return got.open, got.max, err
}

type (
	askRoom    struct{ reply chan roomAnswer }
	roomAnswer struct{ open, max int }
)

// handleRoom answers the requests of this file; false: m is not one.
func (r *run) handleRoom(m request) bool {
	switch m := m.(type) {
	case askRoom:
		m.reply <- roomAnswer{open: len(r.a.book), max: r.a.spec.MaxWorlds}
	default:
		return false
	}
	return true
}

// refuseNew refuses to make the world called name when it is not open
// and the book is full (nil: it may be made, or is open).
func (r *run) refuseNew(name string) error {
	max, open := r.a.spec.MaxWorlds, len(r.a.book)
	if max <= 0 || r.a.book[name] != nil || open < max {
		return nil
	}
	r.log.Warn().Str("world", name).Int("open", open).Int("max", max).Msg("a new world was refused: the instance is full")
	return remedy.With(fmt.Errorf("world %s: %w (%d open, at most %d)", name, ErrFull, open, max), FixesFull...)
}
