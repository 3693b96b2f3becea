package profiles

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// DirIn is the profiles directory inside a state directory the user chose
// (--state-dir).
func DirIn(stateDir string) string { return filepath.Join(stateDir, "profiles") }

// DefaultDir is where profiles are kept when no state directory was
// chosen: not the default state directory, which is a tmpfs on most Linux
// desktops (XDG_RUNTIME_DIR) and gone after a reboot, but the user's
// persistent state: $XDG_STATE_HOME/cdpvisor/profiles (~/.local/state/…)
// on Linux and BSD, the user's config directory elsewhere.
func DefaultDir() (string, error) {
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		if s := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(s) {
			return filepath.Join(s, "cdpvisor", "profiles"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrNoDir, err)
		}
		return filepath.Join(home, ".local", "state", "cdpvisor", "profiles"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoDir, err)
	}
	return filepath.Join(dir, "cdpvisor", "profiles"), nil
}

// Prepare makes dir ready to keep profiles in: created 0700 when missing,
// refused when another user owns it or others may write to it (as the
// state directory).
func Prepare(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("the profiles directory %s: %w", dir, err)
	}
	return state.PrepareDir(dir)
}

// knownFile is a profile file as the actor last read or wrote it: its
// state, and the size and time that tell whether the file changed since.
type knownFile struct {
	state   storagestate.State
	size    int64
	modTime time.Time
}

func (k knownFile) is(info os.FileInfo) bool {
	return k.size == info.Size() && k.modTime.Equal(info.ModTime())
}

func (a *Actor) read(name string) (storagestate.State, bool, error) {
	p := a.path(name)
	info, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		delete(a.known, name)
		return storagestate.State{}, false, nil
	}
	if !state.Mine(p) {
		return storagestate.State{}, false, fmt.Errorf("%w: %s (another user's, or not a regular file); it is not read", ErrNotMine, p)
	}
	if k, ok := a.known[name]; ok && err == nil && k.is(info) {
		return k.state, true, nil // unchanged since: a kept world made again is not parsed again
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return storagestate.State{}, false, err
	}
	st, err := storagestate.Parse(data)
	if err != nil {
		return storagestate.State{}, false, fmt.Errorf("%w: %s: %w", ErrUnreadable, p, err)
	}
	a.known[name] = knownFile{state: st, size: info.Size(), modTime: info.ModTime()}
	return st, true, nil
}

// writeFileAtomic writes a profile file (a test makes it slow).
var writeFileAtomic = state.WriteFileAtomic

// write writes a world's file, and answers what it holds now. Run by the
// writer: it reads and changes nothing of the actor's.
func (a *Actor) write(name string, st storagestate.State) (knownFile, error) {
	if err := Prepare(a.spec.Dir); err != nil { // removed or changed since start
		return knownFile{}, err
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return knownFile{}, err
	}
	p := a.path(name)
	if _, err := os.Lstat(p); err == nil && !state.Mine(p) {
		return knownFile{}, fmt.Errorf("%w: %s; it is not overwritten", ErrNotMine, p)
	}
	if err := writeFileAtomic(p, append(data, '\n')); err != nil {
		return knownFile{}, err
	}
	info, err := os.Lstat(p)
	if err != nil {
		return knownFile{}, err
	}
	return knownFile{state: st, size: info.Size(), modTime: info.ModTime()}, nil
}

func (a *Actor) list() ([]Kept, error) {
	entries, err := os.ReadDir(a.spec.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	kept := map[string]*Kept{}
	of := func(name string) *Kept {
		if kept[name] == nil {
			kept[name] = &Kept{Name: name}
		}
		return kept[name]
	}
	for _, e := range entries {
		name, storage := strings.CutSuffix(e.Name(), fileSuffix)
		if !storage {
			name, _ = strings.CutSuffix(e.Name(), policySuffix)
		}
		if name == e.Name() || strings.HasPrefix(name, ".") || !state.Mine(filepath.Join(a.spec.Dir, e.Name())) {
			continue
		}
		if !storage { // listed, its policy too when it can be read (its making says why not)
			if p, found, err := a.readPolicy(name); err == nil && found {
				of(name).Policy = &p
			} else {
				of(name)
			}
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		k := of(name)
		k.Bytes, k.Saved = info.Size(), info.ModTime()
	}
	out := make([]Kept, 0, len(kept))
	for _, k := range kept {
		out = append(out, *k)
	}
	slices.SortFunc(out, func(x, y Kept) int { return strings.Compare(x.Name, y.Name) })
	return out, nil
}
