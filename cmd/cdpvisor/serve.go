package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/crowdflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/remedywords"
)

// supervisorFlags are the flags `serve` (and later `mcp`) share.
type supervisorFlags struct {
	port          int
	browser       string
	windows       bool
	headless      bool
	headed        bool
	userDataDir   string
	downloadDir   string
	browserArgs   listFlag
	allowOrigins  listFlag
	stateDir      string
	logLevel      string
	logFormat     string
	hangTimeout   time.Duration
	idleStop      time.Duration
	journal       bool
	maxWorlds     int
	debugPprof    bool
	launchTimeout time.Duration
	attach        bool
}

func (f *supervisorFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.port, "port", 0, "port of the stable endpoint on 127.0.0.1 (0 = any free port)")
	fs.StringVar(&f.browser, "browser", "", "chrome, edge, chromium, brave, firefox (served over WebDriver BiDi at /session), or a path to the executable (default: the first Chromium-family one detected, see 'cdpvisor browsers')")
	fs.BoolVar(&f.windows, "windows", false, "inside WSL: use a Windows browser (Chrome, Edge, Chromium, Brave on the Windows side), started and stopped through powershell.exe; without it a Linux install of the type comes first")
	fs.BoolVar(&f.headless, "headless", false, "run the browser headless (the default)")
	fs.BoolVar(&f.headed, "headed", false, "run the browser with a window")
	fs.StringVar(&f.userDataDir, "user-data-dir", "", "browser profile directory (default: a fresh temporary profile per launch, removed after)")
	fs.StringVar(&f.downloadDir, "download-dir", "", "where downloads land, each instance's in a folder named by its id, each world's in a folder of its own there (created 0700 when missing; never inside the profile, so downloads outlive restarts)")
	fs.Var(&f.browserArgs, "browser-arg", "extra browser argument (repeatable; in the env var one per line, or quoted as a shell would). Not --user-data-dir, --remote-debugging-* (Firefox: -profile, --remote-debugging-port): cdpvisor owns those. Instances of the other family (a Firefox instance of a Chromium coordinator, or the reverse) do not get them")
	fs.Var(&f.allowOrigins, "allow-origin", "websocket Origin to allow besides the endpoint's own (repeatable; * allows any)")
	fs.StringVar(&f.stateDir, "state-dir", state.DefaultDir(), "directory of the coordinator state files, private to you: created 0700, refused if another user owns it or others may write to it")
	fs.DurationVar(&f.launchTimeout, "launch-timeout", launch.ReadyTimeout, "how long a launch may take to be ready (the DevTools line, then /json/version answering); a failed launch is retried with backoff")
	fs.DurationVar(&f.hangTimeout, "hang-timeout", 10*time.Second, "declare a browser hung, kill it and relaunch on demand, when it answers nothing for this long (Go duration, e.g. 30s; 0 disables)")
	fs.DurationVar(&f.idleStop, "idle-stop", 0, "stop the browser when no client connection has been open for this long, e.g. 15m (0 = never; the next request launches again)")
	fs.BoolVar(&f.journal, "journal", true, "keep each world's journal of what its clients did (methods, targets, navigations' URLs, answers, hosts) in the state dir; --journal=false keeps none")
	fs.IntVar(&f.maxWorlds, "max-worlds", 0, "most worlds open at once in each instance (0 = no limit): past it a new world is refused (HTTP 429 with Retry-After) until one closes; an open one is still found, a closed kept one does not count")
	fs.BoolVar(&f.debugPprof, "debug-pprof", false, "serve the Go runtime's profiles (heap, goroutine, allocs, …) at /debug/pprof/ on the endpoint, to whoever may read /metrics: for a memory or goroutine leak hunt")
	fs.BoolVar(&f.attach, "attach", false, "attach to the browser you run yourself, on its default profile (or --user-data-dir's), once you allowed remote debugging (chrome://inspect/#remote-debugging): one connection for every client; cdpvisor never launches or stops it")
	fs.StringVar(&f.logLevel, "log-level", "info", "trace, debug, info, warn, error or disabled")
	fs.StringVar(&f.logFormat, "log-format", "console", "json or console (logs go to stderr)")
}

// coordinatorConfig validates the flags and resolves the browser.
func (f *supervisorFlags) coordinatorConfig(sys launch.System, stderr io.Writer) (actors.CoordinatorConfig, error) {
	if f.headless && f.headed {
		return actors.CoordinatorConfig{}, usageErr("--headless and --headed contradict each other; give one")
	}
	if f.launchTimeout <= 0 {
		return actors.CoordinatorConfig{}, usageErr("--launch-timeout %s: want a positive duration, e.g. 15s", f.launchTimeout)
	}
	if err := chromium.CheckExtraArgs(f.browserArgs); err != nil {
		return actors.CoordinatorConfig{}, usageErr("--browser-arg: %w", err)
	}
	if f.hangTimeout < 0 {
		return actors.CoordinatorConfig{}, usageErr("--hang-timeout %s: want a duration of 0 (no hang detection) or more, e.g. 10s", f.hangTimeout)
	}
	if f.idleStop < 0 {
		return actors.CoordinatorConfig{}, usageErr("--idle-stop %s: want a duration of 0 (never) or more, e.g. 15m", f.idleStop)
	}
	if f.maxWorlds < 0 {
		return actors.CoordinatorConfig{}, usageErr("--max-worlds %d: want 0 (no limit) or more", f.maxWorlds)
	}
	if f.port < 0 || f.port > 65535 {
		return actors.CoordinatorConfig{}, usageErr("--port %d: want 0 (any free port) to 65535", f.port)
	}
	log, err := newLogger(stderr, f.logLevel, f.logFormat)
	if err != nil {
		return actors.CoordinatorConfig{}, err
	}
	sys.PreferWindows = sys.PreferWindows || f.windows
	browser, err := detect.Resolve(sys, f.browser)
	if err != nil {
		return actors.CoordinatorConfig{}, err
	}
	l := launchers.For(sys, browser)
	if err := l.CheckArgs(f.browserArgs); err != nil {
		return actors.CoordinatorConfig{}, usageErr("--browser-arg: %w", err)
	}
	profile := f.userDataDir
	if profile != "" {
		if profile, err = l.ProfileDir(profile); err != nil {
			return actors.CoordinatorConfig{}, usageErr("--user-data-dir: %w", err)
		}
	}
	var users launch.Launcher
	if f.attach {
		if users, profile, err = f.usersBrowser(sys, browser); err != nil {
			return actors.CoordinatorConfig{}, usageErr("--attach: %w", err)
		}
	}
	downloadDir := ""
	if f.downloadDir != "" {
		if downloadDir, err = downloads.Resolve(f.downloadDir); err != nil {
			return actors.CoordinatorConfig{}, usageErr("--download-dir: %w", err)
		}
	}
	return actors.CoordinatorConfig{
		Port: f.port,
		Launch: launch.Options{
			Browser: browser, Headless: !f.headed, UserDataDir: profile, ExtraArgs: f.browserArgs, ReadyTimeout: f.launchTimeout,
		},
		UsersBrowser: users,
		StateDir:     f.stateDir,
		Sys:          sys,
		AllowOrigins: f.allowOrigins,
		Version:      version,
		WatchdogExe:  watchdogExe(),
		HangTimeout:  f.hangTimeout,
		IdleStop:     f.idleStop,
		NoJournal:    !f.journal,
		MaxWorlds:    f.maxWorlds,
		DebugPprof:   f.debugPprof,
		DownloadDir:  downloadDir,
		Words:        remedywords.CommandLine,
		Log:          log,
	}, nil
}

// usersBrowser is the launcher of --attach, and the profile it attaches on:
// --user-data-dir's, or the browser type's default one.
func (f *supervisorFlags) usersBrowser(sys launch.System, b launch.Browser) (launch.Launcher, string, error) {
	if len(f.browserArgs) > 0 {
		return nil, "", fmt.Errorf("--browser-arg does not apply: cdpvisor does not start the browser you run")
	}
	return launchers.UsersBrowser(sys, b, f.userDataDir)
}

func runServe(args []string, sys launch.System, stdout, stderr io.Writer) error {
	var f supervisorFlags
	var fleet fleetFlags
	var rec recordflags.Coordinator
	var crowd crowdflags.Coordinator
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	f.register(fs)
	rec.Register(fs)
	crowd.Register(fs)
	fleet.register(fs)
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	cfg, err := f.coordinatorConfig(sys, stderr)
	if err != nil {
		return err
	}
	if err := fleet.apply(&cfg, os.Getenv); err != nil {
		return err
	}
	rec.Apply(&cfg)
	crowd.Apply(&cfg)
	c, err := actors.NewCoordinator(cfg)
	if err != nil {
		return err
	}
	stopping, stop := stopOnSignal(cfg.Log, "stopping: closing client connections, stopping the browsers, removing the state files",
		os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, run := context.WithCancel(context.Background())
	defer run()
	go fleet.drainThenStop(stopping, ctx, c, run) // owned: ends once stopping is done
	inst := c.Default()
	cfg.Log.Info().Str("endpoint", inst.Proxy.Endpoint()).Str("instance", inst.ID).Str("browser", cfg.Launch.Browser.Path).
		Str("state", c.StatePath()).Msg("serving; the browser starts on the first request")
	fmt.Fprintln(stdout, inst.Proxy.Endpoint())
	err = c.Run(ctx)
	cfg.Log.Info().Msg("stopped")
	return err
}
