package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Fifty launch/stop cycles under one guard leave no watchdog, browser,
// profile or goroutine behind.
func TestFiftyLaunchStopCyclesLeaveNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	stateDir := t.TempDir()
	c, err := actors.NewCoordinator(actors.CoordinatorConfig{
		Sys: detect.HostSystem(),
		Launch: launch.Options{
			Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
			Headless: true, StopGrace: time.Second,
		},
		StateDir: stateDir, WatchdogExe: binary, Version: version, Log: zerolog.Nop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cancel()
			<-ran
		}
	})
	for i := 0; i < 50; i++ {
		ep, err := c.LaunchBrowser(ctx, "", browser.Change{}, nil)
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		// One guard, started with the coordinator, for all its browsers.
		if w := watchdogs(); len(w) != 1 {
			t.Fatalf("cycle %d: watchdogs %v, want exactly one", i, w)
		}
		if _, err := c.StopBrowser(ctx, ""); err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if actortest.Alive(ep.Pid) {
			t.Fatalf("cycle %d: browser %d still alive after stop", i, ep.Pid)
		}
	}
	cancel()
	stopped = true
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(3 * time.Second); len(watchdogs()) > 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if w := watchdogs(); len(w) != 0 {
		t.Fatalf("watchdogs left: %v", w)
	}
	if dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("cdpv-%d-*", os.Getpid()))); len(dirs) != 0 {
		t.Fatalf("profiles left: %v", dirs)
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Fatalf("state files left: %v", left)
	}
	var after int
	for end := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before+2 || time.Now().After(end) {
			break
		}
	}
	if after > before+2 {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

// watchdogs lists this test run's watchdog processes.
func watchdogs() []int {
	var out []int
	for _, pid := range actortest.MarkedProcesses(actortest.RunMarker()) {
		if strings.Contains(actortest.Cmdline(pid), " watchdog ") {
			out = append(out, pid)
		}
	}
	return out
}
