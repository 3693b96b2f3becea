package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/bridge"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// runBridge acts as a Chrome executable for tools that launch Chrome
// themselves: `cdpvisor bridge [chrome args…]`, or any name this binary is
// invoked by through a symlink (`cdpvisor bridge --install DIR` makes
// DIR/chrome). Exit codes follow a browser's: 0 after a normal end, 1 on
// an error (said on stderr).
func runBridge(args []string, sys launch.System, stdout, stderr io.Writer) error {
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		fmt.Fprint(stdout, bridgeHelp)
		return nil
	}
	a, err := bridge.ParseArgs(args, os.Getenv)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	if a.Install != "" {
		link, err := bridge.Install(a.Install)
		if err != nil {
			return fmt.Errorf("bridge --install: %w", err)
		}
		fmt.Fprintln(stdout, link) // the path alone, for $(…)
		return nil
	}
	if slices.Contains(a.BrowserArgs, "--version") {
		return printBrowserVersion(sys, a.Browser, a.Windows)
	}
	log, err := newLogger(stderr, cmp.Or(os.Getenv("CDPVISOR_LOG_LEVEL"), "info"), cmp.Or(os.Getenv("CDPVISOR_LOG_FORMAT"), "console"))
	if err != nil {
		return err
	}
	log = log.With().Str("role", "bridge").Logger()
	cfg := bridge.Config{Args: a, Stderr: stderr, Log: log, WatchdogExe: watchdogExe()}
	if a.Pipe {
		if cfg.Pipe, err = openToolPipe(); err != nil {
			return err
		}
	} else if a.Port < 0 {
		return errors.New("bridge: neither --remote-debugging-pipe nor --remote-debugging-port was given; " +
			"the tool that runs this bridge as its browser must ask for one of them")
	}
	if cfg.BrowserPort, err = a.BrowserPort(os.Getenv); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if a.Coordinator {
		target, err := state.Discover(ctx, state.DiscoverOptions{
			StateFile: os.Getenv("CDPVISOR_STATE"), StateDir: cmp.Or(os.Getenv("CDPVISOR_STATE_DIR"), state.DefaultDir()),
			PPID: os.Getppid(), Timeout: 10 * time.Second, Log: log,
		})
		if err != nil {
			return fmt.Errorf("bridge --coordinator: %w", err)
		}
		if cfg.Source, err = bridge.NewCoordinatorSource(target.WS); err != nil {
			return err
		}
	} else if cfg.Browser, err = bridge.RealBrowser(sys, a.Browser, a.Windows); err != nil {
		return fmt.Errorf("bridge: %w", err)
	} else {
		cfg.Launcher = launchers.For(sys, cfg.Browser)
	}
	return bridge.Run(ctx, cfg)
}

const bridgeHelp = `cdpvisor bridge: act as a Chrome executable for tools that insist on launching Chrome

Usage:
  cdpvisor bridge [chrome args…]
  chrome [chrome args…]              (a symlink made by --install, called like a browser)
  cdpvisor bridge --install DIR

The tool starts the bridge as it would start Chrome. With --remote-debugging-pipe the bridge relays
fds 3/4 (closing with its browser, as Chrome would); with --remote-debugging-port=N it serves that port
with restart-resilient relays and prints the "DevTools listening on" line. A browser already running on
the same --user-data-dir is reused (never stopped); otherwise one is launched, and stopped on exit when
headless or on a temporary profile.

Chrome's own flags it reads:
  --remote-debugging-pipe             the JSON pipe on fds 3 and 4
  --remote-debugging-port PORT        serve the tool on PORT (0 = any free port)
  --remote-debugging-address ADDR     loopback only (127.0.0.1, localhost, ::1)
  --remote-allow-origins ORIGINS      websocket Origins to allow, comma-separated
  --user-data-dir DIR                 the profile: a browser already on it is reused
  --headless[=new]                    headless (a headed browser on a profile is kept after exit)
  --version                           print the real browser's version
  anything else                       passed on to the browser

The bridge's own flags:
  --browser NAME|PATH                 the real browser to launch       env CDPVISOR_BROWSER
  --bridge-port PORT                  the launched browser's own port  env CDPVISOR_BRIDGE_PORT
  --windows                           inside WSL, launch (or reuse) a Windows browser     env CDPVISOR_WINDOWS=1
  --coordinator                       use the running coordinator's endpoint instead of a browser of its own
                                                                        env CDPVISOR_COORDINATOR=auto
  --hang-timeout DURATION             a browser silent this long is killed as hung (default 10s, 0 disables)
                                                                        env CDPVISOR_HANG_TIMEOUT
  --download-dir DIR                  where a launched browser's downloads land (default
                                      $XDG_DOWNLOAD_DIR/cdpvisor/bridge, else ~/Downloads/cdpvisor/bridge)
                                                                        env CDPVISOR_DOWNLOAD_DIR
  --install DIR                       create DIR/chrome, a symlink to this binary, and exit
  --help                              this help
Logs: env CDPVISOR_LOG_LEVEL, CDPVISOR_LOG_FORMAT.

Examples:
  npx chrome-devtools-mcp --executablePath="$(cdpvisor bridge --install ~/.local/cdpvisor)"
  npx @playwright/mcp --executable-path ~/.local/cdpvisor/chrome
  CDPVISOR_COORDINATOR=auto npx chrome-devtools-mcp --executablePath ~/.local/cdpvisor/chrome
`

// printBrowserVersion answers `chrome --version` as the real browser would,
// for tools that check the version before launching.
func printBrowserVersion(sys launch.System, want string, windows bool) error {
	b, err := bridge.RealBrowser(sys, want, windows)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := detect.ReadVersion(ctx, sys, b)
	if err != nil {
		return fmt.Errorf("bridge: the version of %s: %w", b.Path, err)
	}
	fmt.Printf("%s %s (through cdpvisor bridge)\n", b.Name, v)
	return nil
}
