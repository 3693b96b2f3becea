package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/remedywords"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/seedflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/wrapenv"
)

// wrapFlags are wrap's own flags plus the supervisor flags, which only
// matter with --standalone (and --state-dir, which both use).
type wrapFlags struct {
	supervisorFlags
	instance   string
	timeout    time.Duration
	standalone bool
	state      string
	isolate    wrapenv.Isolate
	seed       seedflags.Flags // of the --isolate world
	policy     seedflags.Policy
	record     recordflags.Switch // of the --isolate world
}

// standaloneSearch is how long --standalone looks for a running coordinator
// before starting its own, unless --timeout is given.
const standaloneSearch = time.Second

func (f *wrapFlags) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("wrap", flag.ContinueOnError)
	f.supervisorFlags.register(fs)
	fs.StringVar(&f.instance, "instance", "", "use this instance's endpoint (an id from the coordinator's browser_instance tool)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "how long to wait for a running coordinator")
	fs.BoolVar(&f.standalone, "standalone", false, "when no coordinator runs, run one inside wrap for the command's lifetime (the supervisor flags apply to it)")
	fs.StringVar(&f.state, "state", "", "use only the coordinator of this state file")
	fs.Var(&f.isolate, "isolate", "give the command a world of its own, a browser context on the shared browser, closed once wrap ends; --isolate=NAME: a named world, which stays")
	f.record.Register(fs, "with --isolate: record the command's world (world trace NAME writes it as a Playwright trace); --record=false: a named world's recording stops")
	f.seed.Register(fs)
	f.policy.Register(fs)
	return fs
}

// silentExit ends cdpvisor with code and prints nothing more: run() stays
// quiet for errHelp, which already means "said what there was to say".
func silentExit(code int) error { return &exitError{code: code, err: errHelp} }

// runWrap runs `cdpvisor wrap`. Its own messages start with "cdpvisor wrap:";
// stdout belongs to the child alone.
func runWrap(args []string, sys launch.System, stdout, stderr io.Writer) error {
	err := wrap(args, sys, stdout, stderr)
	if err == nil {
		return nil
	}
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err == errHelp {
			return err
		}
		code = ee.code
		err = ee.err
	}
	fmt.Fprintln(stderr, "cdpvisor wrap:", remedy.Explain(err, remedywords.CommandLine)) // its fixes said as flags
	return silentExit(code)
}

// splitCommand separates wrap's flags from the command: the command starts
// after `--` or at the first argument that is not a flag.
func splitCommand(args []string) (flags, command []string) {
	probe := (&wrapFlags{}).flagSet()
	probe.SetOutput(io.Discard)
	if err := probe.Parse(args); err != nil {
		return args, nil // parseFlags reports it
	}
	rest := probe.Args()
	return args[:len(args)-len(rest)], rest
}

func wrap(args []string, sys launch.System, stdout, stderr io.Writer) error {
	flagArgs, command := splitCommand(args)
	var f wrapFlags
	fset := f.flagSet()
	if err := parseFlags(fset, flagArgs, stdout); err != nil {
		return err
	}
	if len(command) == 0 {
		return usageErr("no command to run; usage: cdpvisor wrap [flags] -- CMD ARGS… (e.g. cdpvisor wrap -- npx chrome-devtools-mcp --browserUrl={cdp_endpoint})")
	}
	if f.timeout < 0 {
		return usageErr("--timeout %s: want a positive duration", f.timeout)
	}
	if f.standalone && f.instance != "" {
		return usageErr("--instance and --standalone exclude each other: a standalone coordinator has only its default instance")
	}
	if err := f.isolate.Check(); err != nil {
		return usageErr("%v", err)
	}
	if f.seed.Given() && !f.isolate.On {
		return usageErr("%s seed the command's world: add --isolate=NAME (or --isolate)", seedflags.Names)
	}
	var err error
	if f.isolate.Seed, err = f.seed.Request(); err != nil { // the file read and checked before anything starts
		return usageErr("%v", err)
	}
	if f.policy.Given() && !f.isolate.On {
		return usageErr("%s give the command's world a network policy: add --isolate=NAME (or --isolate)", seedflags.PolicyNames)
	}
	if f.isolate.Policy, err = f.policy.Request(); err != nil {
		return usageErr("%v", err)
	}
	f.isolate.Replace = f.policy.Replace
	if f.isolate.Record = f.record.Request(); f.record.Given() && !f.isolate.On {
		return usageErr("--record records the command's world: add --isolate (or --isolate=NAME)")
	}
	log, err := newLogger(stderr, f.logLevel, f.logFormat)
	if err != nil {
		return err
	}
	timeout := f.timeout
	if f.standalone {
		explicit := false
		fset.Visit(func(fl *flag.Flag) { explicit = explicit || fl.Name == "timeout" })
		if !explicit {
			timeout = min(timeout, standaloneSearch)
		}
	}

	// Catch the signals from the start: during the search they end wrap,
	// once the child runs they are passed on to it.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, wrapenv.Signals...)
	defer signal.Stop(sigs)

	opts := state.DiscoverOptions{StateFile: f.state, StateDir: f.stateDir, Instance: f.instance,
		PPID: os.Getppid(), Timeout: timeout, Log: log}
	target, sig, err := wrapenv.Discover(opts, sigs)
	if sig != nil {
		log.Debug().Str("signal", sig.String()).Msg("interrupted while looking for a coordinator")
		return silentExit(wrapenv.SignalExitCode(sig))
	}
	if err != nil && !f.standalone {
		return err
	}
	if err != nil {
		log.Debug().Err(err).Msg("no running coordinator; starting one for this command")
		return runStandalone(&f, sys, command, sigs, stdout, stderr)
	}
	log.Debug().Str("state", target.Path).Int("pid", target.State.PID).Str("endpoint", target.Endpoint).
		Str("instance", target.Instance).Str("protocol", string(target.Protocol)).Msg("using a running coordinator")
	if target, err = f.isolate.Apply(target, true, command, log); err != nil {
		return err
	}
	code, err := runChild(command, target, sigs, stdout, stderr, log)
	if err != nil {
		return err
	}
	return exitCode(code)
}

func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return silentExit(code)
}

// runStandalone runs a coordinator inside wrap for the child's lifetime and
// stops it (browser ended, state file removed) before returning.
func runStandalone(f *wrapFlags, sys launch.System, command []string, sigs <-chan os.Signal, stdout, stderr io.Writer) error {
	cfg, err := f.coordinatorConfig(sys, stderr)
	if err != nil {
		return err
	}
	c, err := actors.NewCoordinator(cfg)
	if err != nil {
		return fmt.Errorf("start a standalone coordinator: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- c.Run(ctx) }()
	inst := c.Default()
	target := state.Target{Path: c.StatePath(), Port: inst.Proxy.Port(), Endpoint: inst.Proxy.Endpoint(), WS: inst.Proxy.BrowserWS(), Protocol: inst.Protocol}
	cfg.Log.Info().Str("endpoint", target.Endpoint).Str("browser", cfg.Launch.Browser.Path).
		Msg("standalone coordinator for this command; the browser starts on the first request")
	code := 0
	target, childErr := f.isolate.Apply(target, false, command, cfg.Log)
	if childErr == nil {
		code, childErr = runChild(command, target, sigs, stdout, stderr, cfg.Log)
	}
	cancel()
	if err := <-runDone; err != nil {
		cfg.Log.Error().Err(err).Msg("standalone coordinator")
	}
	cfg.Log.Debug().Msg("standalone coordinator stopped")
	if childErr != nil {
		return childErr
	}
	return exitCode(code)
}

// runChild is wrapenv.RunChild, a command that could not start exiting
// with the shell's code.
func runChild(command []string, t state.Target, sigs <-chan os.Signal, stdout, stderr io.Writer, log zerolog.Logger) (int, error) {
	code, err := wrapenv.RunChild(command, t, sigs, stdout, stderr, log)
	if se := (*wrapenv.StartError)(nil); errors.As(err, &se) {
		return 0, &exitError{code: se.Code, err: se.Err}
	}
	return code, err
}
