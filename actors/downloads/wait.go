package downloads

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// waiter is one Wait: the download it waits for ("" until the next one to
// begin is known), of which world, and where its end is told.
type waiter struct {
	id    string // the actor's once sent
	world string // "" for any
	done  chan waitEnd
}

// waitEnd is how a wait ended: the download finished, or the actor stopped.
type waitEnd struct {
	entry Entry
	err   error
}

// ErrStopped ends the waits of an actor that stops.
var ErrStopped = errors.New("the instance's downloads are no longer followed: its instance was closed, or cdpvisor is stopping")

// waitStart is the actor's first answer to a Wait: the download already
// finished, an unknown id, or neither (then the end comes on done).
type waitStart struct {
	finished *Entry
	err      error
}

// Wait returns a download once it has completed or been canceled: id's,
// or without id the oldest one in progress, else the next one to begin.
// When ctx ends first it returns a *NotFinishedError with the download as
// it is now.
func (a *Actor) Wait(ctx context.Context, id string) (Entry, error) { return a.WaitIn(ctx, "", id) }

// WaitIn is Wait among the downloads of a world ("" for any): without id,
// the world's oldest download in progress, else its next one to begin; an
// id of another world's download is an *UnknownDownloadError.
func (a *Actor) WaitIn(ctx context.Context, world, id string) (Entry, error) {
	w := &waiter{id: id, world: world, done: make(chan waitEnd, 1)}
	start, err := actor.Ask(ctx, a.mailbox, func(r chan waitStart) request { return waitFor{w: w, reply: r} })
	switch {
	case err == nil && start.err != nil:
		return Entry{}, start.err
	case err == nil && start.finished != nil:
		return *start.finished, nil
	case err == nil:
		select {
		case end := <-w.done:
			return end.entry, end.err
		case <-ctx.Done():
		}
	case ctx.Err() == nil:
		return Entry{}, err // the actor is not running
	}
	// ctx ended: stop waiting (the request may have reached the actor),
	// and say how the download is now.
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	cur, _ := actor.Ask(stopCtx, a.mailbox, func(r chan *Entry) request { return stopWaiting{w: w, reply: r} })
	select {
	case end := <-w.done: // it finished meanwhile
		return end.entry, end.err
	default:
	}
	return Entry{}, &NotFinishedError{Current: cur, Err: ctx.Err()}
}

// startWait registers w unless its download has finished or is unknown.
func (r *run) startWait(w *waiter) waitStart {
	if w.id != "" {
		rec, ok := r.a.table.byID[w.id]
		if !ok || !rec.In(w.world) {
			return waitStart{err: &UnknownDownloadError{Instance: r.a.spec.Instance, World: w.world, ID: w.id, Known: r.a.table.entries(w.world)}}
		}
		if rec.Finished() {
			e := rec.Entry
			return waitStart{finished: &e}
		}
	} else if rec := r.a.table.oldestInProgress(w.world); rec != nil {
		w.id = rec.ID
	}
	r.waiters[w] = true
	return waitStart{}
}

// NotFinishedError is a Wait whose context ended first (Err says how:
// deadline or cancel); Current is the download as it is now, nil when none
// had begun.
type NotFinishedError struct {
	Current *Entry
	Err     error
}

func (e *NotFinishedError) Error() string {
	if e.Current == nil {
		return "no download began: " + e.Err.Error()
	}
	return fmt.Sprintf("download %s (%s) is still %s: %v", e.Current.ID, e.Current.Filename, e.Current.State, e.Err)
}

func (e *NotFinishedError) Unwrap() error { return e.Err }

// UnknownDownloadError is an id the instance (or the world asked about)
// has no download for.
type UnknownDownloadError struct {
	Instance, ID string
	World        string // "" when no world was asked about
	Known        []Entry
}

// maxNamed bounds how many downloads an UnknownDownloadError names.
const maxNamed = 20

func (e *UnknownDownloadError) Error() string {
	where := "instance " + e.Instance
	if e.World != "" {
		where = fmt.Sprintf("world %s of instance %s", e.World, e.Instance)
	}
	if len(e.Known) == 0 {
		return fmt.Sprintf("no download %q in %s: it has no downloads yet", e.ID, where)
	}
	var names []string
	for i := len(e.Known) - 1; i >= 0 && len(names) < maxNamed; i-- { // the newest first
		k := e.Known[i]
		names = append(names, fmt.Sprintf("%s (%s, %s)", k.ID, k.Filename, k.State))
	}
	more := ""
	if n := len(e.Known) - len(names); n > 0 {
		more = fmt.Sprintf(" and %d older", n)
	}
	return fmt.Sprintf("no download %q in %s; its downloads, newest first: %s%s", e.ID, where, strings.Join(names, ", "), more)
}
