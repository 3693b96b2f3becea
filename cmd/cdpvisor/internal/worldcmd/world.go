// Package worldcmd is `cdpvisor world open|list|close`: a script's way to
// a world of the running coordinator, the endpoint of its own port alone on
// stdout (ENDPOINT=$(cdpvisor world open alice)). It finds the coordinator
// as wrap does, and asks its endpoint's world requests (state.WorldsPath).
package worldcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// Actions are what `cdpvisor world` does.
var Actions = []string{"open", "list", "close"}

// Options are one `cdpvisor world` command line, read.
type Options struct {
	Action   string // open, list or close
	Name     string // open and close
	JSON     bool   // list
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
	case "open", "close":
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
		return usage(errors.New("world needs an action: open NAME, list or close NAME"))
	default:
		return usage(fmt.Errorf("unknown world action %q: want open NAME, list or close NAME", o.Action))
	}
	return nil
}

// Run does the command: open prints the world's endpoint alone on
// stdout, list a table (or JSON), close what the world had.
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	if err := o.Check(); err != nil {
		return err
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
		ws, err := state.OpenWorld(ctx, t.Endpoint, o.Name)
		if err != nil {
			return asked(t, err)
		}
		_, err = fmt.Fprintln(stdout, ws.Endpoint)
		return err
	case "list":
		list, err := state.ListWorlds(ctx, t.Endpoint)
		if err != nil {
			return asked(t, err)
		}
		return printList(stdout, list, o.JSON)
	default:
		had, err := state.CloseWorld(ctx, t.Endpoint, o.Name)
		if err != nil {
			return asked(t, err)
		}
		_, err = fmt.Fprintf(stdout, "closed world %s: %d client connection(s) and %d page(s) closed, its port closed; the name is free again\n", had.Name, had.Clients, had.Pages)
		return err
	}
}

// asked words a failed world request.
func asked(t state.Target, err error) error {
	if errors.Is(err, state.ErrNoWorldRequests) {
		return fmt.Errorf("the coordinator (pid %d) at %s is older than 'cdpvisor world': %w; restart it", t.State.PID, t.Endpoint, err)
	}
	if errors.Is(err, state.ErrWorldRefused) && errors.Unwrap(err) != nil {
		return fmt.Errorf("%s: %w", who(t), err)
	}
	return err
}

func printList(w io.Writer, list []state.WorldStatus, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no open worlds; make one with: cdpvisor world open NAME")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORLD\tENDPOINT\tPATH ENDPOINT\tCLIENTS\tPAGES")
	for _, ws := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", ws.Name, ws.Endpoint, ws.PathEndpoint, ws.Clients, ws.Pages)
	}
	return tw.Flush()
}

// who names t's instance.
func who(t state.Target) string {
	if t.Instance != "" {
		return "instance " + t.Instance
	}
	return "the default instance"
}
