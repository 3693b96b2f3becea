// Package worldcmd is `cdpvisor world open|list|close|export|journal|trace`: a script's
// way to a world of the running coordinator, the endpoint of its own port
// alone on stdout (ENDPOINT=$(cdpvisor world open alice)), seeded from a
// storage state, the user's browser or another world, and its storage
// state exported, its journal read, its recording written. It finds the coordinator as wrap does, and asks its
// endpoint's world requests (worldapi.Path).
package worldcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/seedflags"
)

// Actions are what `cdpvisor world` does.
var Actions = []string{"open", "list", "close", "export", "journal", "trace"}

// Options are one `cdpvisor world` command line, read.
type Options struct {
	Action   string             // open, list, close, export, journal or trace
	Name     string             // all but list
	JSON     bool               // list
	Seed     seedflags.Flags    // open
	Policy   seedflags.Policy   // open: the world's network policy
	Record   recordflags.Switch // open: the world's record switch
	Forget   bool               // close
	Output   string             // export, trace ("-": stdout)
	Since    string             // journal: the entries after this seq or time; trace: what came after this time, or this long ago
	Follow   bool               // journal: then the new ones as they come
	Format   string             // trace: worldapi.FormatTrace or FormatWebM
	Discover state.DiscoverOptions
}

// UsageError is a command line that cannot be done as given (exit 2): a
// bad action or name, no coordinator to ask, an instance without worlds.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usage(err error) error { return &UsageError{Err: err} }

// ErrFirefox refuses an instance that runs Firefox: a world is a browser
// context of a Chromium-family browser over CDP.
var ErrFirefox = errors.New("worlds are browser contexts of a Chromium-family browser over CDP")

// Check refuses a command line before any coordinator is looked for.
func (o Options) Check() error {
	switch o.Action {
	case "open", "close", "export", "journal", "trace":
		if o.Name == "" {
			return usage(fmt.Errorf("world %s needs a world's name: cdpvisor world %s NAME", o.Action, o.Action))
		}
		if err := worlds.CheckName(o.Name); err != nil {
			return usage(fmt.Errorf("world %s: %w", o.Action, err))
		}
	case "list":
		if o.Name != "" {
			return usage(fmt.Errorf("world list takes no name (%q); it lists them all", o.Name))
		}
	case "":
		return usage(errors.New("world needs an action: " + actionsWant))
	default:
		return usage(fmt.Errorf("unknown world action %q: want %s", o.Action, actionsWant))
	}
	return o.checkFlags()
}

// checkFlags refuses the flags of another action than the one given.
func (o Options) checkFlags() error {
	switch {
	case o.Policy.Given() && o.Action != "open":
		return usage(fmt.Errorf("%s are a world's network policy, given at its making: for world open, not %s", seedflags.PolicyNames, o.Action))
	case o.Seed.Given() && o.Action != "open":
		return usage(fmt.Errorf("%s seed a world: they are for world open, not %s", seedflags.Names, o.Action))
	case o.Forget && o.Action != "close":
		return usage(fmt.Errorf("--forget is for world close (close the world and delete its profile), not %s", o.Action))
	case o.Record.Given() && o.Action != "open":
		return usage(fmt.Errorf("--record is a world's record switch, given with world open, not %s", o.Action))
	case o.Output != "" && o.Action != "export" && o.Action != "trace":
		return usage(fmt.Errorf("--output is for world export and trace, not %s", o.Action))
	case o.Follow && o.Action != "journal":
		return usage(fmt.Errorf("--follow is for world journal, not %s", o.Action))
	case o.Since != "" && o.Action != "journal" && o.Action != "trace":
		return usage(fmt.Errorf("--since is for world journal and trace, not %s", o.Action))
	case o.Format != "" && o.Action != "trace":
		return usage(fmt.Errorf("--format is for world trace, not %s", o.Action))
	}
	if o.Action == "trace" {
		return checkTrace(o)
	}
	if o.Since != "" {
		if _, err := journal.ParseSince(o.Since); err != nil {
			return usage(fmt.Errorf("--since: %w", err))
		}
	}
	return nil
}

// actionsWant says the actions, for the refusals.
const actionsWant = "open NAME, list, close NAME, export NAME, journal NAME or trace NAME"

// Run does the command: open prints the world's endpoint alone on stdout
// (what a seed gave on stderr), list a table (or JSON), close what the
// world had, export its storage state (stdout, or --output).
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) error {
	if err := o.Check(); err != nil {
		return err
	}
	seed, err := o.Seed.Request() // the file read and checked before anything is sent
	if err != nil {
		return usage(err)
	}
	policy, err := o.Policy.Request()
	if err != nil {
		return usage(err)
	}
	t, err := state.Discover(ctx, o.Discover)
	if err != nil {
		if errors.Is(err, state.ErrNoCoordinator) {
			return usage(err)
		}
		return err
	}
	if t.Protocol == launch.ProtocolBiDi {
		return usage(remedy.With(fmt.Errorf("%w: %s at %s runs Firefox over WebDriver BiDi", ErrFirefox, who(t), t.Endpoint),
			remedy.Change(remedy.Instance), remedy.Say("'cdpvisor status' lists the instances; a Chromium one has worlds")))
	}
	switch o.Action {
	case "open":
		rec := o.Record.Request()
		ws, err := worldapi.OpenWith(ctx, t.Endpoint, o.Name, worldapi.OpenRequest{Seed: seed, Policy: policy, Replace: o.Policy.Replace, Record: rec})
		if err != nil {
			return asked(t, err)
		}
		if rec != nil && *rec && !ws.Recorded {
			fmt.Fprintf(stderr, "cdpvisor world: the coordinator did not say world %s is recorded (is it older than recording?); 'cdpvisor world list' shows what is\n", o.Name)
		}
		if ws.Seeded != nil {
			fmt.Fprintf(stderr, "cdpvisor world: world %s seeded: %d cookie(s), localStorage of %d origin(s)\n", o.Name, ws.Seeded.Cookies, ws.Seeded.Origins)
			for _, n := range ws.Seeded.Notes {
				fmt.Fprintf(stderr, "cdpvisor world: %s\n", n)
			}
		}
		_, err = fmt.Fprintln(stdout, ws.Endpoint)
		return err
	case "list":
		list, err := worldapi.List(ctx, t.Endpoint)
		if err != nil {
			return asked(t, err)
		}
		return printList(stdout, list, o.JSON)
	case "export":
		return export(ctx, t, o, stdout, stderr)
	case "journal":
		return readJournal(ctx, t, o, stdout)
	case "trace":
		return writeTrace(ctx, t, o, time.Now(), stdout, stderr)
	case "close":
		if o.Forget {
			return forget(ctx, t, o.Name, stdout)
		}
	}
	had, err := worldapi.Close(ctx, t.Endpoint, o.Name)
	if err != nil {
		return asked(t, err)
	}
	kept := ""
	if had.Kept {
		kept = "; its cookies and localStorage stay kept (--forget deletes them)"
	}
	_, err = fmt.Fprintf(stdout, "closed world %s: %d client connection(s) and %d page(s) closed, its port closed%s\n", had.Name, had.Clients, had.Pages, kept)
	return err
}

// asked words a failed world request.
func asked(t state.Target, err error) error {
	if errors.Is(err, worldapi.ErrNoRequests) {
		return fmt.Errorf("the coordinator (pid %d) at %s is older than 'cdpvisor world': %w; restart it", t.State.PID, t.Endpoint, err)
	}
	if errors.Is(err, worldapi.ErrNoStorage) {
		return fmt.Errorf("the coordinator (pid %d) at %s: %w; restart it with this version", t.State.PID, t.Endpoint, err)
	}
	if errors.Is(err, worldapi.ErrPolicyKept) {
		err = remedy.With(err, worlds.FixReplace)
	}
	if errors.Is(err, worldapi.ErrRefused) && errors.Unwrap(err) != nil {
		return fmt.Errorf("%s: %w", who(t), err)
	}
	return err
}

// who names t's instance.
func who(t state.Target) string {
	if t.Instance != "" {
		return "instance " + t.Instance
	}
	return "the default instance"
}
