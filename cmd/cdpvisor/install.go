package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/install"
)

// runInstall downloads a browser into the user's cache: steps and progress
// on stderr, the executable's path as the one line on stdout.
func runInstall(args []string, sys launch.System, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	channel := fs.String("channel", "", "release channel of chrome and chrome-headless-shell: stable, beta, dev or canary (chromium has none)")
	dir := fs.String("dir", "", "cache directory to install into (set as "+detect.InstallDirEnv+", browsers and --browser look there too)")
	mirror := fs.String("mirror", "", "download host instead of Google's, laid out as Google's (see below)")
	products, flagArgs := splitPositional(fs, args)
	if err := parseFlags(fs, flagArgs, stdout); err != nil {
		return err
	}
	if len(products) > 1 {
		return usageErr("one browser at a time: got %s; run 'cdpvisor install --help'", strings.Join(products, ", "))
	}
	product := detect.ProductChrome
	if len(products) == 1 {
		product = products[0]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *dir == "" {
		*dir = detect.InstallRoot(sys) // the host as main read it
	}
	res, err := install.Install(ctx, install.Options{
		Product: product, Channel: *channel, Dir: *dir, Mirror: *mirror,
		UserAgent: "cdpvisor/" + version, Log: stderr, TTY: isTerminal(stderr),
	})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("install stopped by a signal; nothing was left behind: %w", err)
		}
		var bad *install.OptionError
		if errors.As(err, &bad) {
			return usageErr("%w; run 'cdpvisor install --help'", err)
		}
		return err
	}
	if res.Existed {
		fmt.Fprintf(stderr, "cdpvisor install: already installed: %s\n", res.Dir)
	} else {
		fmt.Fprintf(stderr, "cdpvisor install: installed %s %s (%s) in %s\n", res.Product, res.Version, res.Channel, res.Dir)
	}
	if err := install.Probe(ctx, sys, res.Executable); err != nil {
		fmt.Fprintf(stderr, "cdpvisor install: warning: the installed browser does not start here: %v\n", err)
	}
	if *dir != "" && os.Getenv(detect.InstallDirEnv) == "" {
		fmt.Fprintf(stderr, "cdpvisor install: outside the default cache: pass --browser %s, or set %s=%s\n", res.Executable, detect.InstallDirEnv, *dir)
	}
	fmt.Fprintln(stdout, res.Executable)
	return nil
}

// splitPositional separates the arguments that are not flags (the browser
// name) from the flags and their values, so the name may come anywhere:
// `install chrome --channel beta` and `install --channel beta chrome`.
func splitPositional(fs *flag.FlagSet, args []string) (positional, flags []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(positional, args[i+1:]...), flags
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBool(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return positional, flags
}

// isTerminal: w is a terminal, where a progress bar redrawn in place reads
// well (and a log file would fill with carriage returns).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
