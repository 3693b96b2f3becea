package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
)

// /health/ready follows capacity, failing launches and the drain.
func TestReadinessFollowsCapacityLaunchesAndDrain(t *testing.T) {
	c := runCoordinator(t, CoordinatorConfig{MaxInstances: 2})
	ctx := served.Context(t)
	if ok, why := c.Ready(ctx); !ok {
		t.Fatalf("a fresh coordinator is not ready: %s", why)
	}
	inst, err := c.NewInstance(ctx, InstanceRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := c.Ready(ctx); ok || !strings.Contains(why, "at capacity: 2 instances of 2") {
		t.Fatalf("at capacity: ready %v %q", ok, why)
	}
	if _, err := c.CloseInstance(ctx, inst.ID); err != nil {
		t.Fatal(err)
	}
	if ok, why := c.Ready(ctx); !ok {
		t.Fatalf("below capacity again: %s", why)
	}
	start := time.Now()
	c.DrainFor(ctx, time.Minute)
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("a drain with no client connected waited %s", waited)
	}
	if ok, why := c.Ready(ctx); ok || !strings.Contains(why, "draining") {
		t.Fatalf("draining: ready %v %q", ok, why)
	}
}

func TestNotReadyWhileLaunchesKeepFailing(t *testing.T) {
	launch := served.FakeLaunch(t, "--fake-never-ready")
	launch.ReadyTimeout = 300 * time.Millisecond
	c := runCoordinator(t, CoordinatorConfig{Launch: launch})
	ctx := served.Context(t)
	if _, err := c.Default().Browser.EnsureRunning(ctx); err == nil {
		t.Fatal("a browser that is never ready launched")
	}
	if ok, why := c.Ready(ctx); ok || !strings.Contains(why, "launches keep failing") {
		t.Fatalf("after a failed launch: ready %v %q", ok, why)
	}
}
