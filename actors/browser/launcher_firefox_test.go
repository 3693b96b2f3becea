package browser_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

func TestFirefoxLauncherStartsAndStops(t *testing.T) {
	l := browser.Firefox()
	b, err := l.Resolve(chrometest.Firefox(t))
	if err != nil || b.Type != chrome.Firefox {
		t.Fatalf("Resolve(firefox path) = %+v, %v", b, err)
	}
	p, err := l.Start(context.Background(), chrome.LaunchOptions{Browser: b, Headless: true, StopGrace: 3 * time.Second}, nil)
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
	ff, chromium := fake("firefox-nightly"), fake("chromium-dev")
	if _, err := browser.Chromium().Resolve(ff); err == nil || !strings.Contains(err.Error(), "speaks WebDriver BiDi, not CDP") {
		t.Errorf("Chromium launcher given %s: %v", ff, err)
	}
	if _, err := browser.Firefox().Resolve(chromium); err == nil || !strings.Contains(err.Error(), "is not a Firefox") {
		t.Errorf("Firefox launcher given %s: %v", chromium, err)
	}
	if b, err := browser.Firefox().Resolve(ff); err != nil || b.Path != ff {
		t.Errorf("Firefox launcher given %s: %+v, %v", ff, b, err)
	}
}
