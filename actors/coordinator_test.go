package actors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// runCoordinator runs a coordinator on the fake browser until the test
// ends, and checks that its end leaves no state file.
func runCoordinator(t *testing.T, cfg CoordinatorConfig) *Coordinator {
	t.Helper()
	if cfg.StateDir == "" {
		cfg.StateDir = t.TempDir()
	}
	if cfg.Sys.GOOS == "" {
		cfg.Sys = detect.HostSystem()
	}
	if cfg.Launch.Browser.Path == "" {
		cfg.Launch = served.FakeLaunch(t)
	}
	cfg.Log = served.Logger(t)
	c, err := NewCoordinator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("run: %v", err)
		}
		if left, _ := filepath.Glob(filepath.Join(cfg.StateDir, "*.json")); len(left) != 0 {
			t.Errorf("state files left after the coordinator stopped: %v", left)
		}
	})
	return c
}

func TestCoordinatorPublishesItsInstancesAndEndsClean(t *testing.T) {
	dir := t.TempDir()
	c := runCoordinator(t, CoordinatorConfig{StateDir: dir})
	ctx := served.Context(t)
	s, err := state.Read(c.StatePath())
	if err != nil || s.PID != os.Getpid() || s.Port != c.Default().Proxy.Port() || len(s.Instances) != 1 {
		t.Fatalf("state file %+v %v", s, err)
	}
	inst, err := c.NewInstance(ctx, InstanceRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := state.Read(c.StatePath()); len(s.Instances) != 2 || s.Instances[1].ID != inst.ID {
		t.Fatalf("state file after a new instance lists %+v", s.Instances)
	}
	st, err := c.Status(ctx)
	if err != nil || len(st) != 2 || !st[0].Default || st[1].ID != inst.ID || st[1].Browser.State != "idle" {
		t.Fatalf("status %+v %v", st, err)
	}
	if _, err := c.CloseInstance(ctx, inst.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Instance(ctx, inst.ID); !errors.Is(err, ErrUnknownInstance) {
		t.Fatalf("closed instance still found: %v", err)
	}
	if s, _ := state.Read(c.StatePath()); len(s.Instances) != 1 {
		t.Fatalf("state file after close lists %+v", s.Instances)
	}
}

func TestCoordinatorLaunchRestartAndStop(t *testing.T) {
	c := runCoordinator(t, CoordinatorConfig{})
	ctx := served.Context(t)
	ep, err := c.LaunchBrowser(ctx, "", browser.Change{Args: []string{"--fake-marker"}}, nil)
	if err != nil || ep.Generation != 1 {
		t.Fatalf("launch: %+v %v", ep, err)
	}
	if _, err := c.RestartBrowser(ctx, "", false, nil); !errors.Is(err, browser.ErrRestartRefused) {
		t.Fatalf("restart right after the launch: %v, want refused", err)
	}
	var steps []string
	ep, err = c.RestartBrowser(ctx, "", true, func(s string) { steps = append(steps, s) })
	if err != nil || ep.Generation != 2 || len(steps) != 2 {
		t.Fatalf("forced restart: %+v %v, progress %q", ep, err, steps)
	}
	if _, err := c.StopBrowser(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if st, _ := c.Status(ctx); st[0].Browser.State != "idle" || st[0].Browser.LastExit == nil || st[0].Browser.LastExit.Cause != browser.CauseStopped {
		t.Fatalf("after stop: %+v", st[0].Browser)
	}
	if _, err := c.LaunchBrowser(ctx, "inst_nope", browser.Change{}, nil); !errors.Is(err, ErrUnknownInstance) {
		t.Fatalf("launch on an unknown instance: %v", err)
	}
}
