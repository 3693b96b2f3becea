package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// A passing world (Spec.Passing: a fresh agent-… world, whose name never
// comes back) would otherwise leave a journal for every agent run, in a
// state dir that is often memory: its journal lasts while the coordinator
// runs, the newest Spec.PassingClosed of them once their worlds closed, and
// none after the coordinator stops.

// DefaultPassingClosed passing worlds' journals are kept after their
// worlds closed, the most recently closed; older ones are deleted.
const DefaultPassingClosed = 32

// StalePassing: a passing world's journal not written for this long is one
// a killed coordinator left, deleted by the next journal to start.
const StalePassing = 24 * time.Hour

// forgetJournal asks for a world's journal files to be deleted.
type forgetJournal struct {
	world string
	reply chan forgotten
}

type forgotten struct {
	deleted bool // a file was
	err     error
}

// Forget deletes the journal of the world called name (both its files),
// after writing what waits for it; a file another user owns is refused.
// forgot says whether there was a file to delete.
func (a *Actor) Forget(ctx context.Context, world string) (forgot bool, err error) {
	if err := checkWorld(world); err != nil {
		return false, err
	}
	ans, err := actor.Ask(ctx, a.mailbox, func(r chan forgotten) request { return forgetJournal{world: world, reply: r} })
	if err != nil {
		return false, err
	}
	return ans.deleted, ans.err
}

// Closed tells the journal that the world called name closed, without
// waiting: a passing world's journal then counts among the closed ones.
func (a *Actor) Closed(world string) {
	if a.spec.Passing == nil || !a.spec.Passing(world) {
		return
	}
	a.mu.Lock()
	first := len(a.queue) == 0 && len(a.closed) == 0
	a.closed = append(a.closed, world)
	a.mu.Unlock()
	if first {
		a.wake()
	}
}

// takeClosed empties the closed worlds' queue.
func (a *Actor) takeClosed(into []string) []string {
	a.mu.Lock()
	into = append(into, a.closed...)
	a.closed = a.closed[:0]
	a.mu.Unlock()
	return into
}

// retireClosed counts the passing worlds that closed, oldest first, and
// deletes the journals past Spec.PassingClosed.
func (r *run) retireClosed() {
	r.closedNow = r.a.takeClosed(r.closedNow[:0])
	for _, world := range r.closedNow {
		r.passingClosed = append(slices.DeleteFunc(r.passingClosed, func(w string) bool { return w == world }), world)
	}
	for len(r.passingClosed) > r.a.spec.PassingClosed {
		world := r.passingClosed[0]
		if _, err := r.remove(world); err != nil {
			r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("a closed fresh world's journal was not deleted")
		}
	}
}

// forget deletes a world's journal once what waits for it is written.
func (r *run) forget(m forgetJournal) {
	r.drain()
	deleted, err := r.remove(m.world)
	m.reply <- forgotten{deleted: deleted, err: err}
}

// remove closes a world's journal and deletes its files; deleted: whether
// there were any.
func (r *run) remove(world string) (deleted bool, err error) {
	if w := r.files[world]; w != nil {
		w.close()
		delete(r.files, world)
		delete(r.bufs, world)
	}
	delete(r.passing, world)
	r.passingClosed = slices.DeleteFunc(r.passingClosed, func(w string) bool { return w == world })
	path := filepath.Join(r.a.spec.Dir, world+".jsonl")
	var errs []error
	for _, p := range []string{path, path + ".1"} {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if !state.Mine(p) {
			errs = append(errs, fmt.Errorf("%w: %s", ErrNotMine, p))
			continue
		}
		switch err := os.Remove(p); {
		case err == nil:
			deleted = true
		case !errors.Is(err, os.ErrNotExist):
			errs = append(errs, fmt.Errorf("delete the journal %s: %w", p, err))
		}
	}
	return deleted, errors.Join(errs...)
}

// removePassing deletes the journals of every passing world this run
// wrote: the coordinator is stopping, and their names never come back.
func (r *run) removePassing() {
	for world := range r.passing {
		if _, err := r.remove(world); err != nil {
			r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("a fresh world's journal was not deleted")
		}
	}
}

// removeStalePassing deletes the passing worlds' journals that no one
// wrote for StalePassing: a coordinator killed before it could.
func (r *run) removeStalePassing(now time.Time) {
	if r.a.spec.Passing == nil {
		return
	}
	entries, err := os.ReadDir(r.a.spec.Dir)
	if err != nil {
		return // none yet, or not readable: the first entry says why
	}
	written := map[string]time.Time{} // a world's newest file's
	for _, e := range entries {
		world, ok := strings.CutSuffix(strings.TrimSuffix(e.Name(), ".1"), ".jsonl")
		if !ok || !r.a.spec.Passing(world) {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().After(written[world]) {
			written[world] = info.ModTime()
		}
	}
	for world, at := range written {
		if now.Sub(at) < StalePassing {
			continue
		}
		if _, err := r.remove(world); err != nil {
			r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("a stale journal of a fresh world was not deleted")
		}
	}
}
