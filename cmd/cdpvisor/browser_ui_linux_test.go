package main

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A headless browser with 5 worlds, a page each, runs no browser-UI
// renderer (--type=renderer --top-chrome-webui): Chromium starts one per
// browser context for the omnibox popup nobody can see, ~47 MB each
// (docs/performance.md, "A world costs only its pages").
func TestHeadlessWorldsRunNoBrowserUIRenderer(t *testing.T) {
	chromium := actortest.Chromium(t)
	stateDir := t.TempDir()
	if err := os.Chmod(stateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--browser", chromium, "--state-dir", stateDir)
	for i := range 5 {
		url := fmt.Sprintf("%s/context/ui%d/json/new?data:text/html,world%d", s.endpoint, i, i)
		if code, body, _ := actortest.HTTPDo(t, http.MethodPut, url, ""); code != http.StatusOK {
			t.Fatalf("PUT %s: %d %s", url, code, body)
		}
	}
	browsers := s.browsers()
	if len(browsers) != 1 {
		t.Fatalf("browsers %v, want one", browsers)
	}
	// The browser's command line says so whatever its version (Chromium
	// 148 runs no such renderer anyway; 156 one per context).
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", browsers[0]))
	if err != nil {
		t.Fatal(err)
	}
	var disabled []string
	for _, a := range strings.Split(string(raw), "\x00") {
		if v, ok := strings.CutPrefix(a, "--disable-features="); ok {
			disabled = strings.Split(v, ",")
		}
	}
	for _, f := range []string{"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"} {
		if !slices.Contains(disabled, f) {
			t.Errorf("the headless browser's --disable-features %q lacks %s", disabled, f)
		}
	}
	if !slices.Contains(strings.Split(string(raw), "\x00"), "--process-per-site") {
		t.Errorf("the headless browser runs without --process-per-site: a world's second page of a site costs a renderer")
	}
	// The pages' renderers start a moment after their targets (a loaded
	// machine: seconds).
	var all []int
	var renderers, ui int
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		all, renderers, ui = rendererCounts(browsers[0])
		if renderers >= 5 || time.Now().After(end) {
			break
		}
	}
	t.Logf("processes below the browser %d: %d; renderers %d, of them browser UI %d", browsers[0], len(all), renderers, ui)
	if renderers < 5 {
		t.Fatalf("%d renderers for 5 worlds' pages: the count is not of the browser's processes", renderers)
	}
	if ui != 0 {
		t.Errorf("%d browser-UI renderers (--top-chrome-webui) in a headless browser with 5 worlds, want 0", ui)
	}
}

// rendererCounts are the processes below a browser, how many of them are
// renderers, and how many of those the browser's own UI's.
func rendererCounts(browser int) (all []int, renderers, ui int) {
	all = descendants(browser)
	for _, pid := range all {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil {
			continue // gone meanwhile
		}
		// A zygote's child sets its title, its arguments in one string.
		args := strings.FieldsFunc(string(raw), func(r rune) bool { return r == 0 || r == ' ' })
		if !slices.Contains(args, "--type=renderer") {
			continue
		}
		renderers++
		if slices.Contains(args, "--top-chrome-webui") {
			ui++
		}
	}
	return all, renderers, ui
}
