package actors

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/transport"
)

// BridgeConfig is a bridge run: what the tool asked for, and where the
// browser comes from.
type BridgeConfig struct {
	Args        BridgeArgs
	Browser     chrome.Browser // the real browser to launch (unused with Source)
	BrowserPort int            // its debugging port (BridgeArgs.BrowserPort)
	Source      BrowserSource  // a coordinator instead of a browser of our own
	WatchdogExe string         // guards a browser the bridge will stop on exit
	Pipe        transport.Conn // pipe mode: the tool's fds 3 and 4
	Stderr      io.Writer      // where the DevTools line goes, for the tool
	Log         zerolog.Logger
}

// ErrProfileMode is a tool asking for a headless browser on a profile where
// a headed one runs, or the other way round.
var ErrProfileMode = errors.New("the browser on this profile runs in another mode")

// RunBridge stands in for a browser until the tool is done with it: the
// pipe closes, the tool sends Browser.close, or ctx ends. A browser it
// attached to is never stopped; one it launched is stopped on exit when
// it is headless or on a temporary profile (a headed one on the user's
// profile stays, for the next run to attach to).
func RunBridge(ctx context.Context, cfg BridgeConfig) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := cfg.Args
	root := suture.New("bridge", suture.Spec{EventHook: SupervisorHook(cfg.Log), Timeout: 20 * time.Second})
	source := cfg.Source
	var browser *BrowserActor
	if source == nil {
		if err := checkProfileMode(a); err != nil {
			return err
		}
		keep := !a.Headless && a.UserDataDir != ""
		spec := BrowserSpec{
			Instance: "bridge", KeepOnShutdown: keep, Log: cfg.Log,
			Launch: chrome.LaunchOptions{Browser: cfg.Browser, Headless: a.Headless, UserDataDir: a.UserDataDir,
				ExtraArgs: a.BrowserArgs, DebugPort: cfg.BrowserPort},
		}
		if !keep && cfg.WatchdogExe != "" {
			w := NewWatchdogActor(WatchdogActorSpec{Exe: cfg.WatchdogExe, Log: cfg.Log})
			root.Add(w)
			spec.Watchdog = w.Events()
		}
		browser = NewBrowserActor(spec)
		root.Add(browser)
		source = browser
	}
	done := root.ServeBackground(ctx)
	defer func() { cancel(); <-done }()

	ep, err := source.EnsureRunning(ctx)
	if err != nil {
		return fmt.Errorf("no browser for the bridge: %w", err)
	}
	cfg.Log.Info().Str("ownership", ep.Ownership).Str("userDataDir", ep.UserDataDir).Int("pid", ep.Pid).
		Str("resolvedDebugPort", portOf(ep.HostPort)).Msg("bridge connected to its browser")
	switch {
	case cfg.Pipe != nil:
		return bridgePipe(ctx, cfg, source, ep, cancel)
	case a.ListensOnPort():
		return bridgeWS(ctx, cfg, source, cancel)
	}
	return errors.New("the bridge needs --remote-debugging-pipe (with fds 3 and 4) or --remote-debugging-port")
}

// bridgePipe relays the tool's pipe to the browser until either ends: a
// pipe client closes with its browser, as with a real one.
func bridgePipe(ctx context.Context, cfg BridgeConfig, source BrowserSource, ep Endpoint, cancel func()) error {
	conn, err := DialBrowser(ctx, ep, transport.PipeMaxMessage)
	if err != nil {
		return fmt.Errorf("connect to the browser: %w", err)
	}
	relay := NewRelayActor(RelaySpec{
		ID: 1, Instance: "bridge", Client: cfg.Pipe, Browser: conn, Endpoint: ep, Source: source,
		Resilient: false, MaxMessage: transport.PipeMaxMessage, OnBrowserClose: cancel, Log: cfg.Log,
	})
	return relay.Serve(ctx)
}

// bridgeWS serves the tool's port like a browser's debugging endpoint, with
// resilient relays, until ctx ends or a client sends Browser.close.
func bridgeWS(ctx context.Context, cfg BridgeConfig, source BrowserSource, cancel func()) error {
	l, err := Listen(cfg.Args.Port)
	if err != nil {
		return err
	}
	proxy := NewProxyActor(ProxySpec{
		Instance: "bridge", Browser: source, AllowOrigins: cfg.Args.AllowOrigins, OnBrowserClose: cancel, Log: cfg.Log,
	}, l)
	served := make(chan error, 1)
	go func() { served <- proxy.Serve(ctx) }()
	// Tools wait for this line on stderr, as Chromium prints it.
	fmt.Fprintf(cfg.Stderr, "\nDevTools listening on ws://127.0.0.1:%d/devtools/browser/%s\n", proxy.Port(), newUUID())
	<-ctx.Done()
	<-served
	return nil
}

// checkProfileMode refuses a headless run on a profile a headed browser
// holds, and the other way round: one profile, one browser, one mode.
func checkProfileMode(a BridgeArgs) error {
	if a.UserDataDir == "" {
		return nil
	}
	running, err := chrome.BrowsersUnder(a.UserDataDir)
	if err != nil || len(running) == 0 {
		return nil
	}
	_, headless := chrome.FlagValue(running[0].Args, "headless")
	if headless == a.Headless {
		return nil
	}
	mode := map[bool]string{true: "headless", false: "headed"}
	return fmt.Errorf("%w: a %s browser (pid %d) runs on %s and this run asks for %s; close it, or run the tool %s too",
		ErrProfileMode, mode[headless], running[0].Pid, a.UserDataDir, mode[a.Headless], mode[headless])
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
