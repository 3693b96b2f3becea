// Package seedflags is the command line's seed of a world, shared by
// `cdpvisor world open` and `cdpvisor wrap --isolate`: --storage-state
// FILE, --from-user-browser=ORIGIN[,ORIGIN…], --from-world NAME and
// --origin. It is read and checked whole before anything is sent: a file
// that is not a storage state is refused saying what was expected.
package seedflags

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Flags are a world's seed as given on the command line.
type Flags struct {
	StorageState    string     // a file: Playwright's storage state
	FromUserBrowser string     // origins, comma-separated
	FromWorld       string     // a world's name
	Origins         originList // of FromWorld's
}

// Register puts the seed's flags on fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.StorageState, "storage-state", "", "seed the world from this Playwright storage state file (context.storageState()'s): its cookies and localStorage")
	fs.StringVar(&f.FromUserBrowser, "from-user-browser", "", "seed the world with these origins' cookies and localStorage from your own browser (the coordinator runs with --attach); ORIGIN[,ORIGIN…]")
	fs.StringVar(&f.FromWorld, "from-world", "", "seed the world with another world's cookies and localStorage (only --origin's, when given)")
	fs.Var(&f.Origins, "origin", "with --from-world: copy only this origin's (repeatable, or ORIGIN,ORIGIN…)")
}

// Names are the seed's flags, for the refusals of a command that takes
// none.
const Names = "--storage-state, --from-user-browser, --from-world and --origin"

// Given says a seed was asked for.
func (f *Flags) Given() bool {
	return f.StorageState != "" || f.FromUserBrowser != "" || f.FromWorld != "" || len(f.Origins) > 0
}

// ErrNotSeed refuses a seed as given on the command line.
var ErrNotSeed = errors.New("not a seed")

// Request reads the storage state file and checks every origin and name:
// the seed to send, or an error that says what was expected.
func (f *Flags) Request() (worldapi.Seed, error) {
	var req worldapi.Seed
	if f.StorageState != "" {
		data, err := readFile(f.StorageState)
		if err != nil {
			return req, fmt.Errorf("--storage-state %s: %w", f.StorageState, err)
		}
		if _, err := storagestate.Parse(data); err != nil {
			return req, fmt.Errorf("--storage-state %s: %w", f.StorageState, err)
		}
		req.StorageState = json.RawMessage(data)
	}
	var err error
	if req.FromUserBrowser, err = origins("--from-user-browser", splitList(f.FromUserBrowser)); err != nil {
		return req, err
	}
	if f.FromUserBrowser != "" && len(req.FromUserBrowser) == 0 {
		return req, fmt.Errorf("%w: --from-user-browser %q names no origin; want ORIGIN[,ORIGIN…], e.g. https://example.com", ErrNotSeed, f.FromUserBrowser)
	}
	if f.FromWorld != "" {
		if err := worlds.CheckName(f.FromWorld); err != nil {
			return req, fmt.Errorf("%w: --from-world: %w", ErrNotSeed, err)
		}
		req.FromWorld = f.FromWorld
	}
	if len(f.Origins) > 0 && f.FromWorld == "" {
		return req, fmt.Errorf("%w: --origin says which of --from-world's origins to copy; give --from-world NAME "+
			"(--from-user-browser takes its origins itself)", ErrNotSeed)
	}
	if req.Origins, err = origins("--origin", f.Origins); err != nil {
		return req, err
	}
	return req, nil
}

// readFile reads a storage state file, no more than a storage state may
// hold.
func readFile(path string) ([]byte, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, storagestate.MaxSize+1)) // Parse refuses what is more
}

// origins is each origin in a browser's form, refusing what is not one.
func origins(flagName string, in []string) ([]string, error) {
	var out []string
	for _, o := range in {
		c, err := storagestate.CanonicalOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrNotSeed, flagName, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// splitList splits ORIGIN[,ORIGIN…], leaving out empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// originList is --origin: repeatable, each value ORIGIN[,ORIGIN…].
type originList []string

func (l *originList) String() string { return strings.Join(*l, ",") }

func (l *originList) Set(v string) error {
	*l = append(*l, splitList(v)...)
	return nil
}
