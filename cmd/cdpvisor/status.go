package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	stateDir := fs.String("state-dir", state.DefaultDir(), "directory of the coordinator state files")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	list := state.Collect(context.Background(), *stateDir)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no cdpvisor coordinator has a state file in %s\n", *stateDir)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COORDINATOR\tINSTANCE\tENDPOINT\tBROWSER\tPID\tGENERATION\tCLIENTS")
	for _, c := range list {
		who := fmt.Sprintf("pid %d", c.PID)
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
