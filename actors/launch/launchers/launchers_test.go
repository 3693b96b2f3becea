package launchers_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/firefox"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
)

func TestFirefoxLauncherStartsAndStops(t *testing.T) {
	l := firefox.Launcher{Sys: detect.HostSystem()}
	b, err := l.Resolve(actortest.Firefox(t))
	if err != nil || b.Type != launch.Firefox {
		t.Fatalf("Resolve(firefox path) = %+v, %v", b, err)
	}
	p, err := l.Start(context.Background(), launch.Options{Browser: b, Headless: true, StopGrace: 3 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Describe()
	if !strings.HasSuffix(f.WSURL, "/session") || f.Port <= 0 {
		t.Errorf("facts: %+v, want the BiDi socket", f)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if !p.WaitExit(0) {
		t.Fatal("running after Stop")
	}
	if _, err := os.Stat(f.TempDir); !os.IsNotExist(err) {
		t.Errorf("temporary directory left: %v", err)
	}
}

// Each launcher refuses the other family's browser by what it is, before
// anything starts.
func TestLaunchersRefuseTheOtherFamily(t *testing.T) {
	dir := t.TempDir()
	fake := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ff, cr := fake("firefox-nightly"), fake("chromium-dev")
	sys := detect.HostSystem()
	if _, err := (chromium.Launcher{Sys: sys}).Resolve(ff); err == nil || !strings.Contains(err.Error(), "speaks WebDriver BiDi, not CDP") {
		t.Errorf("Chromium launcher given %s: %v", ff, err)
	}
	if _, err := (firefox.Launcher{Sys: sys}).Resolve(cr); err == nil || !strings.Contains(err.Error(), "is not a Firefox") {
		t.Errorf("Firefox launcher given %s: %v", cr, err)
	}
	if b, err := (firefox.Launcher{Sys: sys}).Resolve(ff); err != nil || b.Path != ff {
		t.Errorf("Firefox launcher given %s: %+v, %v", ff, b, err)
	}
}

// For gives each browser its family's launcher: the one place that tells
// them apart.
func TestForPicksTheFamily(t *testing.T) {
	sys := detect.HostSystem()
	cases := []struct {
		b    launch.Browser
		want launch.Launcher
	}{
		{launch.Browser{Type: launch.Chrome}, chromium.Launcher{Sys: sys}},
		{launch.Browser{Type: launch.Firefox}, firefox.Launcher{Sys: sys}},
		{launch.Browser{Type: launch.Edge, Windows: true}, windows.NewLauncher(sys)},
	}
	for _, c := range cases {
		if got := launchers.For(sys, c.b); reflect.TypeOf(got) != reflect.TypeOf(c.want) {
			t.Errorf("For(%+v) = %T, want %T", c.b, got, c.want)
		}
	}
	if w, ok := launchers.For(sys, launch.Browser{Windows: true}).(windows.Launcher); !ok || !w.Sys.PreferWindows {
		t.Errorf("the Windows launcher does not prefer Windows browsers: %+v", w)
	}
}
