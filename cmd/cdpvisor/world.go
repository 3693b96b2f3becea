package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/worldcmd"
)

// runWorld runs `cdpvisor world open NAME | list | close NAME | export NAME | journal NAME`; its logic
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
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // ends a --follow
			err = worldcmd.Run(ctx, o, stdout, stderr)
			stop()
		}
	}
	if ue := (*worldcmd.UsageError)(nil); errors.As(err, &ue) {
		return &exitError{code: 2, err: ue.Err}
	}
	return err
}
