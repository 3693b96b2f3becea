package profiles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A kept world's network policy, upstream proxy (its credentials too) and
// folders are kept beside its storage state, in NAME.policy.json (0600,
// in the same private directory): the world is guarded as before when it
// is made again, after any restart. Forget deletes it with the storage.

// policySuffix names a world's policy file beside its storage state.
const policySuffix = ".policy.json"

// ErrNotPolicy: a policy file that is not a world's policy.
var ErrNotPolicy = errors.New("the policy file is not a world's network policy")

// LoadPolicy answers the policy kept with the world called name; found is
// false when none is kept. A file of another user's, or one that is not a
// policy, is refused (ErrNotMine, ErrNotPolicy), naming it.
func (a *Actor) LoadPolicy(ctx context.Context, name string) (p worldapi.Policy, found bool, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan policyLoaded) request { return loadPolicy{name: name, reply: r} })
	if err != nil {
		return worldapi.Policy{}, false, err
	}
	return got.policy, got.found, got.err
}

// SavePolicy keeps p as the policy of the world called name, and answers
// once it is on disk.
func (a *Actor) SavePolicy(ctx context.Context, name string, p worldapi.Policy) error {
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) request { return savePolicy{name: name, policy: p, reply: r} })
	if err != nil {
		return err
	}
	return errc
}

type (
	loadPolicy struct {
		name  string
		reply chan policyLoaded
	}
	policyLoaded struct {
		policy worldapi.Policy
		found  bool
		err    error
	}
	savePolicy struct {
		name   string
		policy worldapi.Policy
		reply  chan error
	}
)

// onPolicy answers the policy requests. The actor reads and writes a
// policy itself, not through its writer: a save is answered once it is on
// disk (a coordinator killed right after keeps it), and a policy is a few
// hundred bytes written at the owner's request, not at every change.
func (a *Actor) onPolicy(m request) {
	switch m := m.(type) {
	case loadPolicy:
		p, found, err := a.readPolicy(m.name)
		m.reply <- policyLoaded{policy: p, found: found, err: err}
	case savePolicy:
		m.reply <- a.writePolicy(m.name, m.policy)
	default:
		actor.Unknown(a.spec.Log, a.String(), m)
	}
}

// policyPath is the policy file of the world called name (a checked
// world name: no separators).
func (a *Actor) policyPath(name string) string { return filepath.Join(a.spec.Dir, name+policySuffix) }

func (a *Actor) readPolicy(name string) (worldapi.Policy, bool, error) {
	p := a.policyPath(name)
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return worldapi.Policy{}, false, nil
	}
	if !state.Mine(p) {
		return worldapi.Policy{}, false, fmt.Errorf("%w: %s (another user's, or not a regular file); it is not read", ErrNotMine, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return worldapi.Policy{}, false, err
	}
	var wp worldapi.Policy
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&wp); err != nil || d.More() {
		// Not the JSON's error: it may quote the proxy's password.
		return worldapi.Policy{}, false, fmt.Errorf("%w: %s: want {\"allow_hosts\": […], \"deny_hosts\": […], \"proxy\": \"…\", \"allow_files\": […]}", ErrNotPolicy, p)
	}
	wp.Hosts = nil // a list's, not kept
	return wp, true, nil
}

func (a *Actor) writePolicy(name string, wp worldapi.Policy) error {
	if err := Prepare(a.spec.Dir); err != nil { // made with the first world kept
		return err
	}
	p := a.policyPath(name)
	if _, err := os.Lstat(p); err == nil && !state.Mine(p) {
		return fmt.Errorf("%w: %s; it is not overwritten", ErrNotMine, p)
	}
	wp.Hosts = nil
	data, err := json.MarshalIndent(wp, "", "  ")
	if err != nil {
		return err
	}
	if err := state.WriteFileAtomic(p, append(data, '\n')); err != nil {
		return err
	}
	a.spec.Log.Info().Str("world", name).Msg("the world's network policy was kept with its profile") // never the policy: its proxy may hold a password
	return nil
}

// removeMine deletes the file at p if there is one, and it is the user's.
func (a *Actor) removeMine(p string) (bool, error) {
	info, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if info.Mode()&os.ModeSymlink != 0 || !state.Mine(p) {
		return false, fmt.Errorf("%w: %s", ErrNotMine, p)
	}
	return true, os.Remove(p)
}
