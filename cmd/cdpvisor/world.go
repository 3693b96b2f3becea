package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"

	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/worldcmd"
)

// runWorld runs `cdpvisor world open NAME | list | close NAME`; its logic
// is worldcmd's, its usage errors exit 2.
func runWorld(args []string, stdout, stderr io.Writer) error {
	var o worldcmd.Options
	fs := flag.NewFlagSet("world", flag.ContinueOnError)
	logLevel, logFormat := o.Register(fs)
	flagArgs, words := worldcmd.SplitArgs(args)
	if err := parseFlags(fs, flagArgs, stdout); err != nil {
		return err
	}
	log, err := newLogger(stderr, *logLevel, *logFormat)
	if o.Discover.PPID, o.Discover.Log = os.Getppid(), log; err == nil {
		if err = o.Take(words); err == nil {
			err = worldcmd.Run(context.Background(), o, stdout, stderr)
		}
	}
	if ue := (*worldcmd.UsageError)(nil); errors.As(err, &ue) {
		return &exitError{code: 2, err: ue.Err}
	}
	return err
}
