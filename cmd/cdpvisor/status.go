package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
)

// coordinatorStatus is one coordinator as `cdpvisor status` shows it.
type coordinatorStatus struct {
	PID       int              `json:"pid"`
	PPID      int              `json:"ppid"`
	StartedAt time.Time        `json:"started_at"`
	Version   string           `json:"version"`
	StateFile string           `json:"state_file"`
	Live      bool             `json:"live"`
	Problem   string           `json:"problem,omitempty"` // why it is not live
	Instances []instanceStatus `json:"instances"`
}

type instanceStatus struct {
	ID       string                `json:"id"`
	Endpoint string                `json:"endpoint"`
	Port     int                   `json:"port"`
	Clients  int                   `json:"clients"`
	Browser  *actors.BrowserStatus `json:"browser,omitempty"`
}

func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	stateDir := fs.String("state-dir", actors.DefaultStateDir(), "directory of the coordinator state files")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	list := collectStatus(context.Background(), *stateDir)
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

// collectStatus reads every state file and asks each live coordinator's
// instances how they are (health answers never launch a browser).
func collectStatus(ctx context.Context, dir string) []coordinatorStatus {
	paths, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
	var out []coordinatorStatus
	for _, p := range paths {
		s, err := actors.ReadStateFile(p)
		if err != nil {
			out = append(out, coordinatorStatus{StateFile: p, Problem: err.Error()})
			continue
		}
		c := coordinatorStatus{PID: s.PID, PPID: s.PPID, StartedAt: s.StartedAt, Version: s.Version, StateFile: p}
		cand := &candidate{target: coordinatorTarget{Path: p, State: s, Port: s.Port}}
		checkCandidate(ctx, cand)
		switch {
		case cand.stale:
			c.Problem = "stale: its pid is gone (the next coordinator reaps it)"
		case !cand.live:
			c.Problem = "not answering: " + cand.why
		default:
			c.Live = true
		}
		if c.Live {
			for _, inst := range s.Instances {
				is := instanceStatus{ID: inst.ID, Endpoint: inst.Endpoint, Port: inst.Port}
				if h, err := fetchHealth(ctx, inst.Port); err == nil && h.PID == s.PID {
					is.Clients, is.Browser = h.Clients, h.Browser
				}
				c.Instances = append(c.Instances, is)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.After(out[j].StartedAt) })
	return out
}
