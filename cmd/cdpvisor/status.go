package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	stateDir := fs.String("state-dir", state.DefaultDir(), "directory of the coordinator state files (exit 1 when every state file there is stale or corrupt)")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	list := state.Collect(context.Background(), *stateDir)
	live := 0
	for _, c := range list {
		if c.Live {
			live++
		}
	}
	if *asJSON {
		if list == nil {
			list = []state.CoordinatorStatus{} // [] for none, never null
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return err
		}
	} else if len(list) == 0 {
		fmt.Fprintf(stdout, "no cdpvisor coordinator has a state file in %s\n", *stateDir)
	} else if err := printStatus(stdout, list); err != nil {
		return err
	}
	if len(list) > 0 && live == 0 {
		// Exit 1: something is there, and none of it runs.
		return fmt.Errorf("no live coordinator: %d stale or corrupt state file(s) in %s (the next coordinator reaps them)", len(list), *stateDir)
	}
	return nil
}

func printStatus(stdout io.Writer, list []state.CoordinatorStatus) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COORDINATOR\tINSTANCE\tENDPOINT\tBROWSER\tPID\tGENERATION\tCLIENTS")
	for _, c := range list {
		who := fmt.Sprintf("pid %d", c.PID)
		if c.PID == 0 {
			who = filepath.Base(c.StateFile) // a corrupt file names no pid
		}
		if !c.Live {
			fmt.Fprintf(tw, "%s\t-\t-\t%s\t\t\t\n", who, c.Problem)
			continue
		}
		for _, i := range c.Instances {
			state, pid, gen := "?", "", ""
			if b := i.Browser; b != nil {
				state = b.State
				if b.Pid != 0 {
					pid = fmt.Sprint(b.Pid)
				}
				gen = fmt.Sprint(b.Generation)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\n", who, i.ID, i.Endpoint, state, pid, gen, i.Clients)
		}
	}
	return tw.Flush()
}
