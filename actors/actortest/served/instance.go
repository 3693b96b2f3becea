// Package actortest starts actors for tests: a launch of the fake browser,
// and an instance (a BrowserActor and its ProxyActor) served until the test
// ends.
package served

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
)

// FakeLaunch is a headless launch of the fake browser with extra args.
func FakeLaunch(t testing.TB, args ...string) launch.Options {
	return launch.Options{
		Browser:      launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless:     true,
		ExtraArgs:    args,
		ReadyTimeout: 5 * time.Second,
		StopGrace:    time.Second,
	}
}

// Context is a test's context: 30 s at most, cancelled when it ends.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Logger writes to the test's log.
func Logger(t testing.TB) zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)
}

// Instance is a BrowserActor behind a ProxyActor, as the coordinator makes
// them.
type Instance struct {
	Browser *browser.Actor
	Proxy   *proxy.Actor
	Worlds  *worlds.Actor    // its book of worlds, at /context/NAME
	Control *control.Control // the worlds' surface on its endpoint
}

// WS is the endpoint's websocket base, ws://127.0.0.1:PORT.
func (i *Instance) WS() string { return strings.Replace(i.Proxy.Endpoint(), "http://", "ws://", 1) }

// StartInstance serves an instance until the test ends, then stops it and
// waits for everything in it.
func StartInstance(t testing.TB, launch launch.Options, ps proxy.Spec) *Instance {
	t.Helper()
	return StartInstanceSeenAs(t, launch, ps, nil)
}

// StartInstanceSeenAs is StartInstance with the proxy asking seen(the
// BrowserActor) for its browsers (a test's stand-in that lags, say); nil:
// the BrowserActor itself.
func StartInstanceSeenAs(t testing.TB, launch launch.Options, ps proxy.Spec, seen func(*browser.Actor) relay.BrowserSource) *Instance {
	t.Helper()
	return startInstance(t, launch, ps, seen, nil, nil, nil)
}

// StartInstanceKeeping is StartInstance with its named worlds kept by kept
// (their storage and policies), as the coordinator's profiles keep them.
func StartInstanceKeeping(t testing.TB, launch launch.Options, ps proxy.Spec, kept worlds.Profiles) *Instance {
	t.Helper()
	return startInstance(t, launch, ps, nil, kept, nil, nil)
}

// StartInstanceJournaled is StartInstance with its worlds' clients
// journalled by j.
func StartInstanceJournaled(t testing.TB, launch launch.Options, ps proxy.Spec, j *journal.Actor) *Instance {
	t.Helper()
	return startInstance(t, launch, ps, nil, nil, j, nil)
}

// StartInstanceWorlds is StartInstance with its WorldsActor's spec changed
// by edit (its MaxWorlds, its Profiles) before it is made.
func StartInstanceWorlds(t testing.TB, launch launch.Options, ps proxy.Spec, edit func(*worlds.Spec)) *Instance {
	t.Helper()
	return startInstance(t, launch, ps, nil, nil, nil, edit)
}

func startInstance(t testing.TB, launch launch.Options, ps proxy.Spec, seen func(*browser.Actor) relay.BrowserSource, kept worlds.Profiles, j *journal.Actor,
	edit func(*worlds.Spec)) *Instance {
	t.Helper()
	l, err := proxy.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	log := Logger(t)
	b := browser.New(browser.Spec{Instance: "test", Launch: launch, Launcher: chromium.Launcher{}, Log: log})
	ws := worlds.Spec{Instance: "test", Browser: b, SnapshotEvery: WorldSnapshotEvery, Profiles: kept, Log: log}
	if j != nil {
		ws.Journal = j // not a nil *journal.Actor in the interface
	}
	if edit != nil {
		edit(&ws)
	}
	w := worlds.New(ws)
	ps.Instance, ps.Log, ps.Browser, ps.Status = "test", log, b, b
	if seen != nil {
		ps.Browser = seen(b)
	}
	cs := control.Spec{Worlds: w, Browser: ps.Browser, Endpoint: proxy.EndpointOf(l), Ports: ps.Token == "", Journal: j, Words: ps.Words, Log: log}
	if j != nil {
		cs.Stages = append(cs.Stages, j.Taps(nil)) // the world relays' taps, as the coordinator wires them
	}
	c := control.New(cs)
	ps.Scopes, ps.Mounts = c.Scopes(), append(ps.Mounts, c.Mounts()...)
	p := proxy.New(ps, l)
	sup := suture.New("instance", suture.Spec{EventHook: actor.SupervisorHook(log), Timeout: 20 * time.Second})
	sup.Add(b)
	sup.Add(w)
	if ports := c.Ports(p); ports != nil {
		sup.Add(ports)
	}
	sup.Add(p)
	ctx, cancel := context.WithCancel(context.Background())
	done := sup.ServeBackground(ctx)
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("instance did not stop within 30 s")
		}
	})
	return &Instance{Browser: b, Proxy: p, Worlds: w, Control: c}
}

// WorldSnapshotEvery is how often the kit's instances read their worlds'
// cookies: often, so a test's crash finds them read.
const WorldSnapshotEvery = 200 * time.Millisecond

// StartBrowser serves a BrowserActor alone until the test ends.
func StartBrowser(t testing.TB, spec browser.Spec) *browser.Actor {
	t.Helper()
	spec.Instance, spec.Log = "test", Logger(t)
	if spec.Launcher == nil {
		spec.Launcher = chromium.Launcher{}
	}
	b := browser.New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = b.Serve(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("browser actor did not stop within 30 s")
		}
	})
	return b
}

// DialCDP connects a CDP client to the instance's browser websocket.
func (i *Instance) DialCDP(t testing.TB) *actortest.CDPClient {
	return actortest.DialCDP(t, i.WS()+"/devtools/browser")
}

// WaitState waits up to 10 s for the browser machine to be in state.
func WaitState(t testing.TB, b *browser.Actor, state string) browser.Status {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		st, err := b.Status(Context(t))
		if err == nil && st.State == state {
			return st
		}
		if time.Now().After(end) {
			t.Fatalf("state %s, want %s", st.State, state)
		}
	}
}

// Expect waits up to 10 s for the next event of type T, skipping others.
func Expect[T browser.Event](t testing.TB, events <-chan browser.Event) T {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-events:
			if v, ok := ev.(T); ok {
				return v
			}
		case <-timeout:
			var zero T
			t.Fatalf("no %T event", zero)
			return zero
		}
	}
}

// Subscribe returns the browser's events from now on (lossy, 64 buffered)
// and the function that ends the subscription.
func Subscribe(t testing.TB, b *browser.Actor) (<-chan browser.Event, func()) {
	t.Helper()
	events := make(chan browser.Event, 64)
	cancel, err := b.Subscribe(Context(t), events, browser.Lossy)
	if err != nil {
		t.Fatal(err)
	}
	return events, cancel
}
