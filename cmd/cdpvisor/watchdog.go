package main

import (
	"flag"
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
)

// runWatchdog is the detached guard a coordinator (or a bridge) starts with
// itself (internal). It reads the launches it is told of on fd 3; if the
// pipe ends without "bye", it ends their browsers and removes what the
// coordinator left.
func runWatchdog(args []string, sys launch.System, stderr io.Writer) error {
	var s watchdog.GuardSpec
	fs := flag.NewFlagSet("watchdog", flag.ContinueOnError)
	fs.IntVar(&s.CoordinatorPID, "coordinator-pid", 0, "the guarded coordinator's pid")
	fs.StringVar(&s.StateFile, "state-file", "", "the coordinator's state file")
	fs.StringVar(&s.TempRoot, "temp-root", os.TempDir(), "where the coordinator's launches make their directories")
	if err := parseFlags(fs, args, stderr); err != nil { // internal: its help goes to stderr
		return err
	}
	if s.CoordinatorPID <= 0 {
		return usageErr("watchdog needs --coordinator-pid (it is started by the coordinator, not by hand)")
	}
	pipe := os.NewFile(3, "coordinator")
	if pipe == nil {
		return usageErr("watchdog needs the coordinator's pipe on fd 3")
	}
	log := zerolog.New(stderr).With().Timestamp().Str("role", "watchdog").Int("coordinator", s.CoordinatorPID).Logger()
	watchdog.Guard(pipe, s, sys, log)
	return nil
}

// watchdogExe is this executable, for the coordinator's guard.
func watchdogExe() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
