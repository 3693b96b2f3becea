package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/worldcmd"
)

// runWorld runs `cdpvisor world open NAME | list | close NAME`; its logic
// is worldcmd's.
func runWorld(args []string, stdout, stderr io.Writer) error {
	var o worldcmd.Options
	fs, logLevel, logFormat := worldFlags(&o)
	flagArgs, words := splitWorldArgs(args)
	if err := parseFlags(fs, flagArgs, stdout); err != nil {
		return err
	}
	if len(words) > 0 {
		o.Action = words[0]
	}
	if len(words) > 1 {
		o.Name = words[1]
	}
	if len(words) > 2 {
		return usageErr("world %s takes one name, not %q; run 'cdpvisor world --help'", o.Action, words[2:])
	}
	if o.Action == "help" {
		printHelp(stdout, fs)
		return nil
	}
	log, err := newLogger(stderr, *logLevel, *logFormat)
	if err != nil {
		return err
	}
	o.Discover.PPID, o.Discover.Log = os.Getppid(), log
	ctx, cancel := context.WithTimeout(context.Background(), o.Discover.Timeout+30*time.Second)
	defer cancel()
	err = worldcmd.Run(ctx, o, stdout)
	var ue *worldcmd.UsageError
	if errors.As(err, &ue) {
		return &exitError{code: 2, err: ue.Err}
	}
	return err
}

func worldFlags(o *worldcmd.Options) (fs *flag.FlagSet, logLevel, logFormat *string) {
	fs = flag.NewFlagSet("world", flag.ContinueOnError)
	fs.StringVar(&o.Discover.StateFile, "state", "", "use only the coordinator of this state file")
	fs.StringVar(&o.Discover.StateDir, "state-dir", state.DefaultDir(), "where to look for the coordinators' state files")
	fs.StringVar(&o.Discover.Instance, "instance", "", "the worlds of this instance (an id from the coordinator's browser_instance tool); default: the default instance's")
	fs.DurationVar(&o.Discover.Timeout, "timeout", 0, "how long to wait for a running coordinator (0: look once)")
	fs.BoolVar(&o.JSON, "json", false, "list: print JSON")
	logLevel = fs.String("log-level", "warn", "trace, debug, info, warn, error or disabled")
	logFormat = fs.String("log-format", "console", "json or console (logs go to stderr)")
	return fs, logLevel, logFormat
}

// splitWorldArgs separates the flags from the words (the action and the
// name), which may come before, between and after them.
func splitWorldArgs(args []string) (flagArgs, words []string) {
	probe, _, _ := worldFlags(&worldcmd.Options{})
	probe.SetOutput(io.Discard)
	for rest := args; ; {
		if err := probe.Parse(rest); err != nil {
			return args, nil // parseFlags reports it
		}
		flagArgs = append(flagArgs, rest[:len(rest)-probe.NArg()]...)
		if probe.NArg() == 0 {
			return flagArgs, words
		}
		words, rest = append(words, probe.Arg(0)), probe.Args()[1:]
	}
}
