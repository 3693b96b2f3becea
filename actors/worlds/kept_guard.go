package worlds

import (
	"context"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A guarded world's policy outlives it. A kept world (a named world whose
// storage the profiles keep) keeps its policy, upstream proxy and folders
// with its profile, on disk: applied whenever it is made again, by any
// caller and by any coordinator on the same profiles, until it is
// forgotten; another policy given for it needs replace. Any other world
// (a fresh agent-… one, or none kept: no profiles) is remembered by name
// for the actor's life (retired), and a policy given at its new making
// replaces the one it had.

// FixReplace is the way past worldapi.ErrPolicyKept (the command line
// attaches it again to the coordinator's refusal, which it gets as text).
var FixReplace = remedy.Fix{Do: remedy.SetTo, Setting: remedy.Replace, Value: "true", Text: "to replace the kept one"}

// keeps says the world called name keeps its policy with its profile.
func (r *run) keeps(name string) bool { return r.a.spec.Profiles != nil && Kept(name) }

// keptNetwork is the policy the world called name had, if it had one: a
// kept world's from its profile, another's remembered since it closed. A
// kept file that cannot be read (another user's, not a policy) is an
// error: no world is made around the policy it may keep.
func (r *run) keptNetwork(name string) (Network, bool, error) {
	if !r.keeps(name) {
		n, ok := r.a.retired[name]
		return n, ok, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait)
	defer cancel()
	p, found, err := r.a.spec.Profiles.LoadPolicy(ctx, name)
	if err == nil && found {
		var n Network
		if n, err = NetworkOf(p); err == nil {
			return n, true, nil
		}
	}
	if err != nil {
		// Not wrapped: the file's fault, not the request's (a bad pattern
		// in it is no ErrBadPolicy of the caller's).
		return Network{}, false, fmt.Errorf("world %s: %w, so the world is not made: %s; fix or remove the file, or forget the world (its storage goes too)",
			name, ErrKeptUnreadable, err)
	}
	return Network{}, false, nil
}

// ErrKeptUnreadable: a kept world's policy file that cannot be read
// (another user's, not a policy); no world is made around it.
var ErrKeptUnreadable = errors.New("the network policy kept with its profile cannot be read")

// keepChange checks a policy given for a kept world against the one it
// keeps (found), and keeps it with the profile: the same again is
// nothing, another one only with replace. Before anything changes;
// nothing for a world not kept.
func (r *run) keepChange(m makeGuarded, kept Network, found bool) error {
	if !r.keeps(m.name) {
		return nil
	}
	if found {
		diff := kept.differs(m.net)
		if diff == "" {
			return nil
		}
		if !m.replace {
			return remedy.With(fmt.Errorf("world %s: %w: %s; the kept one applies unless replace is given", m.name, worldapi.ErrPolicyKept, diff), FixReplace)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), storage.ProfilesWait)
	defer cancel()
	if err := r.a.spec.Profiles.SavePolicy(ctx, m.name, m.net.kept()); err != nil {
		return fmt.Errorf("world %s: its network policy could not be kept with its profile, so nothing was made or changed: %w", m.name, err)
	}
	return nil
}

// retireGuard closes a world's guard as the world closes; a world that
// does not keep its policy has it remembered by name for the actor's
// life: a world made again under that name (its first use at
// /context/NAME, a client's reconnection) gets it again, so no client of
// a guarded world lifts its policy by having it closed and made anew.
func (r *run) retireGuard(w *world) {
	if w.guard == nil {
		return
	}
	w.closeGuard()
	if r.keeps(w.Name()) {
		return // its profile keeps it
	}
	if r.a.retired == nil {
		r.a.retired = map[string]Network{}
	}
	r.a.retired[w.Name()] = w.guard.net
}

// rehireGuard gives a world being made the policy its name had, if it had
// one. A guard that cannot start now is started again when its context is
// made, and until then the world's context is not made: closed, never
// open. A kept policy that cannot be read makes no world.
func (r *run) rehireGuard(w *world) error {
	n, found, err := r.keptNetwork(w.Name())
	if err != nil || !found {
		return err
	}
	w.guard = &worldGuard{net: n}
	if err := r.startGuard(w.Name(), w.guard); err != nil {
		r.log.Error().Err(err).Str("world", w.Name()).Msg("the network guard of a world made again did not start")
		return nil
	}
	r.publishGuard(w)
	n.log(r.log.Info().Str("world", w.Name())).Str("guard", w.guard.proxy.Addr()).Bool("kept", r.keeps(w.Name())).
		Msg("world made again with the network policy it had")
	return nil
}

// keptPolicy is the policy a closed kept world keeps, as the lists show
// it; nil: none, or one that cannot be read (its making says why).
func keptPolicy(p *worldapi.Policy) *PolicyInfo {
	if p == nil {
		return nil
	}
	n, err := NetworkOf(*p)
	if err != nil {
		return nil
	}
	return n.info()
}
