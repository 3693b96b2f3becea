package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/pacing"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	stateDir := fs.String("state-dir", state.DefaultDir(), "directory of the coordinator state files; exit status 0 when a coordinator there is live "+
		"or there is no state file, 1 when every state file there is stale or corrupt (state files another user owns are ignored)")
	// Not in the help's groups (help.go): --log-level debug names the
	// state files ignored because another user owns them.
	logLevel := fs.String("log-level", "info", "trace, debug, info, warn, error or disabled")
	logFormat := fs.String("log-format", "console", "json or console (logs go to stderr)")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	log, err := newLogger(stderr, *logLevel, *logFormat)
	if err != nil {
		return err
	}
	list := state.Collect(context.Background(), *stateDir, log)
	live := 0
	for _, c := range list {
		if c.Live {
			live++
		}
	}
	if *asJSON {
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
	if slices.ContainsFunc(list, func(c state.CoordinatorStatus) bool { return c.Live }) { // no empty table
		fmt.Fprintln(tw, "COORDINATOR\tINSTANCE\tENDPOINT\tSTATE\tBROWSER\tMODE\tPROFILE\tPID\tUPTIME\tCLIENTS\tDOWNLOADS")
	}
	var notes []string
	for _, c := range list {
		who := fmt.Sprintf("pid %d", c.PID)
		if c.PID == 0 {
			who = filepath.Base(c.StateFile) // a corrupt file names no pid
		}
		if !c.Live {
			notes = append(notes, fmt.Sprintf("%s: %s", who, c.Problem))
			continue
		}
		for _, i := range c.Instances {
			row := []string{who, i.ID, i.Endpoint, "?", "-", "-", "-", "-", "-", fmt.Sprint(i.Clients), cmp.Or(i.DownloadDir, "-")}
			if b := i.Browser; b != nil {
				row[3], row[4], row[5], row[6] = b.State, browserName(b), mode(b.Headless), profile(b)
				if b.Pid != 0 {
					row[7] = fmt.Sprint(b.Pid)
				} else if b.WindowsPid != 0 {
					row[7] = fmt.Sprintf("%d (Windows)", b.WindowsPid)
				}
				if i.UptimeSeconds > 0 {
					row[8] = (time.Duration(i.UptimeSeconds) * time.Second).String()
				}
				if b.LastLaunchError != "" {
					notes = append(notes, fmt.Sprintf("%s: last launch failed: %s", i.ID, firstLine(b.LastLaunchError)))
				} else if ex := b.LastExit; ex != nil && !ex.Planned {
					notes = append(notes, fmt.Sprintf("%s: last exit: %s%s at %s", i.ID, ex.Cause, exitDetail(ex), ex.At.Local().Format(time.TimeOnly)))
				}
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
			var p pacing.Pressure
			if json.Unmarshal(i.Pressure, &p) == nil && (p.Worlds > 0 || !p.IsAvailable) {
				notes = append(notes, fmt.Sprintf("%s: %s", i.ID, p))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, n)
	}
	return nil
}

func browserName(b *browser.Status) string {
	return strings.TrimSpace(cmp.Or(b.Browser.Name, string(b.Browser.Type)) + " " + b.Browser.Version)
}

func mode(headless bool) string {
	if headless {
		return "headless"
	}
	return "headed"
}

func profile(b *browser.Status) string {
	if b.UserDataDir == "" || b.TempProfile {
		return "temporary"
	}
	return b.UserDataDir
}

func exitDetail(ex *browser.ExitRecord) string {
	switch {
	case ex.Signal != "":
		return " (" + ex.Signal + ")"
	case ex.Code != nil:
		return fmt.Sprintf(" (code %d)", *ex.Code)
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
