package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/bridge"
	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// runBridge acts as a Chrome executable for tools that launch Chrome
// themselves: `cdpvisor bridge [chrome args…]`, or any name this binary is
// invoked by through a symlink (`cdpvisor bridge --install DIR` makes
// DIR/chrome). Exit codes follow a browser's: 0 after a normal end, 1 on
// an error (said on stderr).
func runBridge(args []string, stderr io.Writer) error {
	a, err := bridge.ParseArgs(args, os.Getenv)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	if a.Install != "" {
		return installBridge(a.Install, stderr)
	}
	if slices.Contains(a.BrowserArgs, "--version") {
		return printBrowserVersion(a.Browser)
	}
	log, err := newLogger(stderr, envOr("CDPVISOR_LOG_LEVEL", "info"), envOr("CDPVISOR_LOG_FORMAT", "console"))
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
			StateFile: os.Getenv("CDPVISOR_STATE"), StateDir: envOr("CDPVISOR_STATE_DIR", state.DefaultDir()),
			PPID: os.Getppid(), Timeout: 10 * time.Second, Log: log,
		})
		if err != nil {
			return fmt.Errorf("bridge --coordinator: %w", err)
		}
		if cfg.Source, err = bridge.NewCoordinatorSource(target.WS); err != nil {
			return err
		}
	} else if cfg.Browser, err = resolveRealBrowser(a.Browser); err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	return bridge.Run(ctx, cfg)
}

// resolveRealBrowser picks the browser to launch, never this executable
// itself (installed as "chrome", it may be found as one).
func resolveRealBrowser(want string) (chrome.Browser, error) {
	b, err := chrome.Resolve(chrome.HostSystem(), want)
	if err != nil {
		return b, err
	}
	self, _ := os.Executable()
	if same(self, b.Path) {
		return b, fmt.Errorf("%s is this bridge, not a browser; set --browser or CDPVISOR_BROWSER to the real one", b.Path)
	}
	return b, nil
}

func same(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// installBridge creates DIR/chrome, a symlink to this executable, for
// tools that want a path to "Chrome".
func installBridge(dir string, out io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bridge --install: %w", err)
	}
	link := filepath.Join(dir, "chrome")
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("bridge --install: replace %s: %w", link, err)
	}
	if err := os.Symlink(self, link); err != nil {
		return fmt.Errorf("bridge --install: %w", err)
	}
	fmt.Fprintln(out, link)
	return nil
}

// printBrowserVersion answers `chrome --version` as the real browser would,
// for tools that check the version before launching.
func printBrowserVersion(want string) error {
	b, err := resolveRealBrowser(want)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := chrome.ReadVersion(ctx, chrome.HostSystem(), b)
	if err != nil {
		return fmt.Errorf("bridge: the version of %s: %w", b.Path, err)
	}
	fmt.Printf("%s %s (through cdpvisor bridge)\n", b.Name, v)
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
