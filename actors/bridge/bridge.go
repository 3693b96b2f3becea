// Package bridge stands in for a Chrome executable for tools that launch
// one themselves: it serves their pipe (fds 3/4) or port from a browser it
// attaches to, launches, or finds behind a running coordinator.
package bridge

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Config is a bridge run: what the tool asked for, and where the
// browser comes from.
type Config struct {
	Args        Args
	Browser     launch.Browser      // the real browser to launch (unused with Source)
	Launcher    launch.Launcher     // Browser's family launcher (launchers.For)
	BrowserPort int                 // its debugging port (Args.BrowserPort)
	Source      relay.BrowserSource // a coordinator instead of a browser of our own
	WatchdogExe string              // guards a browser the bridge will stop on exit
	Pipe        transport.Conn      // pipe mode: the tool's fds 3 and 4
	Stderr      io.Writer           // where the DevTools line goes, for the tool
	Log         zerolog.Logger
}

// ErrProfileMode is a tool asking for a headless browser on a profile where
// a headed one runs, or the other way round.
var ErrProfileMode = errors.New("the browser on this profile runs in another mode")

// Run stands in for a browser until the tool is done with it: the
// pipe closes, the tool sends Browser.close, or ctx ends. A browser it
// attached to is never stopped; one it launched is stopped on exit when
// it is headless or on a temporary profile (a headed one on the user's
// profile stays, for the next run to attach to).
func Run(ctx context.Context, cfg Config) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := cfg.Args
	root := suture.New("bridge", suture.Spec{EventHook: actor.SupervisorHook(cfg.Log), Timeout: 20 * time.Second})
	source := cfg.Source
	var status proxy.StatusSource // the bridge's own browser says how it is
	watch := func(c transport.Conn) transport.Conn { return c }
	if source == nil {
		if a.UserDataDir != "" {
			dir, err := cfg.Launcher.ProfileDir(a.UserDataDir)
			if err != nil {
				return err
			}
			a.UserDataDir = dir
		}
		if err := checkProfileMode(a, cfg.Launcher); err != nil {
			return err
		}
		keep := !a.Headless && a.UserDataDir != ""
		spec := browser.Spec{
			Instance: "bridge", KeepOnShutdown: keep, HangTimeout: a.HangTimeout, Log: cfg.Log, Launcher: cfg.Launcher,
			Launch: launch.Options{Browser: cfg.Browser, Headless: a.Headless, UserDataDir: a.UserDataDir,
				ExtraArgs: a.BrowserArgs, DebugPort: cfg.BrowserPort, Attachable: a.UserDataDir != ""},
		}
		var w *watchdog.Actor
		if cfg.WatchdogExe != "" {
			// The guard is told of the launch before its spawn; a browser
			// the bridge keeps (headed, on the user's profile) is let go.
			w = watchdog.New(watchdog.Spec{Exe: cfg.WatchdogExe, Log: cfg.Log})
			root.Add(w)
			spec.Launch.Guard = w
		}
		ba := browser.New(spec)
		dl, err := newDownloads(a.DownloadDir, ba, cfg.Log)
		if err != nil {
			return err
		}
		if w != nil {
			w.Downloads(dl.Dir(), false)
		}
		root.Add(dl) // stops after the browser, hearing its exit
		root.Add(ba)
		source, status = ba, ba
		watch = dl.Watch
	}
	done := root.ServeBackground(ctx)
	defer func() { cancel(); <-done }()

	ep, err := source.EnsureRunning(ctx)
	if err != nil {
		return fmt.Errorf("no browser for the bridge: %w", err)
	}
	cfg.Log.Info().Str("ownership", ep.Ownership).Str("userDataDir", ep.UserDataDir).Int("pid", ep.Pid).Int("windowsPid", ep.WindowsPid).
		Int("resolvedDebugPort", ep.DebugPort()).Msg("bridge connected to its browser")
	switch {
	case cfg.Pipe != nil:
		return bridgePipe(ctx, cfg, source, ep, watch, cancel)
	case a.ListensOnPort():
		return bridgeWS(ctx, cfg, source, status, watch, cancel)
	}
	return errors.New("the bridge needs --remote-debugging-pipe (with fds 3 and 4) or --remote-debugging-port")
}

// bridgePipe relays the tool's pipe to the browser until either ends: a
// pipe client closes with its browser, as with a real one.
func bridgePipe(ctx context.Context, cfg Config, source relay.BrowserSource, ep browser.Endpoint, watch func(transport.Conn) transport.Conn, cancel func()) error {
	conn, err := relay.DialBrowser(ctx, ep, transport.PipeMaxMessage)
	if err != nil {
		return fmt.Errorf("connect to the browser: %w", err)
	}
	rl := relay.New(relay.Spec{
		ID: 1, Instance: "bridge", Client: cfg.Pipe, Browser: watch(conn), Endpoint: ep, Source: source,
		Resilient: false, MaxMessage: transport.PipeMaxMessage, OnBrowserClose: cancel, Log: cfg.Log,
	})
	return rl.Serve(ctx)
}

// bridgeWS serves the tool's port like a browser's debugging endpoint, with
// resilient relays, until ctx ends or a client sends Browser.close.
func bridgeWS(ctx context.Context, cfg Config, source relay.BrowserSource, status proxy.StatusSource, watch func(transport.Conn) transport.Conn, cancel func()) error {
	l, err := proxy.Listen(cfg.Args.Port)
	if err != nil {
		return err
	}
	px := proxy.New(proxy.Spec{
		Instance: "bridge", Browser: source, Status: status, AllowOrigins: cfg.Args.AllowOrigins, OnBrowserClose: cancel,
		WatchBrowser: watch, Log: cfg.Log,
	}, l)
	served := make(chan error, 1)
	go func() { served <- px.Serve(ctx) }()
	// Tools wait for this line on stderr, as Chromium prints it.
	fmt.Fprintf(cfg.Stderr, "\nDevTools listening on ws://127.0.0.1:%d/devtools/browser/%s\n", px.Port(), newUUID())
	<-ctx.Done()
	<-served
	return nil
}

// newDownloads has the bridge's own browser save downloads into dir, by
// default the bridge folder of the default download dir (bridges have no
// instance id; Chromium makes the folder at the first download, and it
// stays), checked before the browser starts.
func newDownloads(dir string, b *browser.Actor, log zerolog.Logger) (*downloads.Actor, error) {
	check := dir
	if dir == "" {
		root, err := downloads.DefaultRoot()
		if err != nil {
			return nil, err
		}
		dir, check = downloads.InstanceDir(root, "bridge"), root
	} else {
		var err error
		if dir, err = downloads.Resolve(dir); err != nil {
			return nil, err
		}
		check = dir
	}
	if err := downloads.Prepare(check); err != nil {
		return nil, err
	}
	return downloads.New(downloads.Spec{Instance: "bridge", Dir: dir, Browser: b, Log: log}), nil
}

// checkProfileMode refuses a headless run on a profile a headed browser
// holds, and the other way round: one profile, one browser, one mode.
func checkProfileMode(a Args, l launch.Launcher) error {
	if a.UserDataDir == "" {
		return nil
	}
	running, err := l.BrowsersOn(a.UserDataDir)
	if err != nil || len(running) == 0 {
		return nil
	}
	_, headless := proc.FlagValue(running[0].Args, "headless")
	if headless == a.Headless {
		return nil
	}
	mode := map[bool]string{true: "headless", false: "headed"}
	return fmt.Errorf("%w: a %s browser (%s) runs on %s and this run asks for %s; close it, or run the tool %s too",
		ErrProfileMode, mode[headless], browser.PidText(running[0].Pid, running[0].WindowsPid), a.UserDataDir, mode[a.Headless], mode[headless])
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
