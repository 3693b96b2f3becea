// Package leases is how a world `cdpvisor wrap --isolate` made for its
// child is closed when that wrap is gone: wrap leaves a lease in the
// coordinator's state dir naming the world and itself, and the
// coordinator's LeasesActor closes the world once the holder's pid has
// ended, whatever ended it (a wrap killed with SIGKILL included). wrap and
// the coordinator are separate processes that share nothing but the state
// dir and the endpoint.
package leases

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Lease is one world held by a process.
type Lease struct {
	Coordinator int    `json:"coordinator"`        // the pid of the coordinator that serves the world
	Holder      int    `json:"holder"`             // the pid of the process holding it (a wrap)
	Instance    string `json:"instance,omitempty"` // the instance's id; "" for the default one
	World       string `json:"world"`              // the world's name, as in /context/NAME
}

// DirName is the folder of leases in a state dir.
const DirName = "leases"

// Dir is the folder of leases in stateDir.
func Dir(stateDir string) string { return filepath.Join(stateDir, DirName) }

// Take writes l into stateDir's leases (the folder made private if new)
// and returns the lease file's path. The coordinator closes the world once
// l.Holder has ended.
func Take(stateDir string, l Lease) (string, error) {
	dir := Dir(stateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("lease of world %s: %w", l.World, err)
	}
	data, err := json.Marshal(l)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("world-%d-%d-%s.json", l.Coordinator, l.Holder, l.World))
	if err := state.WriteFileAtomic(path, data); err != nil { // the coordinator never reads half a lease
		return "", fmt.Errorf("lease of world %s: %w", l.World, err)
	}
	return path, nil
}

// read reads a lease file; a malformed one is an error.
func read(path string) (Lease, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Lease{}, err
	}
	var l Lease
	if err := json.Unmarshal(data, &l); err != nil || l.Coordinator <= 0 || l.Holder <= 0 || l.World == "" {
		return Lease{}, fmt.Errorf("not a lease: %s", path)
	}
	return l, nil
}

// readAll reads the lease files in stateDir that are the user's own;
// malformed ones are removed (leases are written whole, never half), told
// to malformed.
func readAll(stateDir string, malformed func(error)) map[string]Lease {
	paths, _ := filepath.Glob(filepath.Join(Dir(stateDir), "world-*.json"))
	out := make(map[string]Lease, len(paths))
	for _, p := range paths {
		if !state.Mine(p) {
			continue
		}
		l, err := read(p)
		switch {
		case err == nil:
			out[p] = l
		case !errors.Is(err, os.ErrNotExist):
			malformed(err)
			_ = os.Remove(p)
		}
	}
	return out
}

// RemoveOf removes the leases naming coordinator, a coordinator that stops
// or was killed (its worlds ended with it), and their folder once empty.
func RemoveOf(stateDir string, coordinator int) {
	for path, l := range readAll(stateDir, func(error) {}) {
		if l.Coordinator == coordinator {
			_ = os.Remove(path)
		}
	}
	_ = os.Remove(Dir(stateDir)) // only when empty
}
