package actors

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

func TestMain(m *testing.M) { os.Exit(chrometest.LeakCheckMain(m)) }

// fakeLaunch is a headless launch of the fake browser with extra args.
func fakeLaunch(t *testing.T, args ...string) chrome.LaunchOptions {
	return chrome.LaunchOptions{
		Browser:      chrome.Browser{Name: "Fake", Type: chrome.Chromium, Path: chrometest.FakeBrowser(t)},
		Headless:     true,
		ExtraArgs:    args,
		ReadyTimeout: 5 * time.Second,
		StopGrace:    time.Second,
	}
}

// startInstance serves an instance until the test ends, then stops it and
// waits for everything in it.
func startInstance(t *testing.T, launch chrome.LaunchOptions, proxy ProxySpec) *Instance {
	t.Helper()
	l, err := Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)
	id := NewInstanceID(time.Now())
	proxy.Instance, proxy.Log = id, log
	inst := newInstance(id, BrowserSpec{Instance: id, Launch: launch, Log: log}, proxy, l, SupervisorHook(log))
	ctx, cancel := context.WithCancel(context.Background())
	done := inst.Supervisor.ServeBackground(ctx)
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("instance did not stop within 30 s")
		}
	})
	return inst
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
