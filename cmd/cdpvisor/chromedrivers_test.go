package main

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// chromedrivers tracks the chromedriver processes a Selenium client script
// starts (selenium-webdriver spawns them as its children), so that the test
// can check they end with the script, and end them if a failed run left one.
type chromedrivers struct {
	script *actortest.LineScript
	pids   map[int]bool
}

func trackChromedrivers(t *testing.T, script *actortest.LineScript) *chromedrivers {
	d := &chromedrivers{script: script, pids: map[int]bool{}}
	t.Cleanup(func() {
		for pid := range d.pids {
			if actortest.Alive(pid) && isChromedriver(pid) {
				actortest.KillPid(t, pid)
			}
		}
	})
	return d
}

// record notes the script's chromedriver children running now.
func (d *chromedrivers) record() {
	for _, pid := range actortest.Children(d.script.Cmd.Process.Pid) {
		if isChromedriver(pid) {
			d.pids[pid] = true
		}
	}
}

// gone fails the test unless one chromedriver was seen and every one has
// ended (the script's driver.quit() ends it).
func (d *chromedrivers) gone(t *testing.T) {
	t.Helper()
	if len(d.pids) == 0 {
		t.Fatal("no chromedriver seen under the script")
	}
	for pid := range d.pids {
		for end := time.Now().Add(5 * time.Second); actortest.Alive(pid) && isChromedriver(pid); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("chromedriver %d outlived its script", pid)
			}
		}
	}
}

func isChromedriver(pid int) bool {
	return strings.Contains(actortest.Cmdline(pid), "chromedriver")
}
