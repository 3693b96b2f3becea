package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The unprefixed /json/list lists what Chromium's own /json/list on a port
// lists, target type for target type: its browser_ui targets (Chromium 156,
// headless too, lists its omnibox popup) are not left out. Both browsers are
// fresh, on about:blank; the browser_ui targets come a moment after start,
// so both lists are read until they agree. A headless cdpvisor runs no
// browser UI of its own (issue 50): the features are turned back on with
// --browser-arg, as a user may, and that must work too.
func TestJSONListListsWhatChromiumLists(t *testing.T) {
	chromium := actortest.Chromium(t)
	own := startUsersChromium(t, t.TempDir()) // Chromium on a port of its own
	port, _, _ := strings.Cut(readFile(t, filepath.Join(own.profile, "DevToolsActivePort")), "\n")
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir(),
		"--browser-arg", "--enable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup")

	var chromiums, ours []string
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		chromiums, ours = listTypes(t, "http://127.0.0.1:"+port), listTypes(t, s.endpoint)
		if slices.Contains(chromiums, "page") && slices.Equal(chromiums, ours) {
			t.Logf("both list %v", ours)
			return
		}
	}
	t.Fatalf("the endpoint's /json/list has types %v, Chromium's own %v", ours, chromiums)
}

// listTypes is the sorted target types of base's /json/list.
func listTypes(t *testing.T, base string) []string {
	t.Helper()
	var list []struct{ Type string }
	getJSON(t, base+"/json/list", &list)
	types := []string{}
	for _, e := range list {
		types = append(types, e.Type)
	}
	slices.Sort(types)
	return types
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
