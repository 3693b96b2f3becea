package mcptools

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// browser_context journal answers a world's journal (none yet: no client
// did anything), takes since as a seq or a time, and refuses what is not
// one, a since for another action, a journal without a name, and a
// coordinator whose journal is off.
func TestMCPBrowserContextJournal(t *testing.T) {
	h := newMCPHarness(t)
	h.call("browser_context", map[string]any{"action": "open", "name": "shop"}, false)
	for _, since := range []any{nil, 3, "2026-11-27T11:00:00Z"} {
		args := map[string]any{"action": "journal", "name": "shop"}
		if since != nil {
			args["since"] = since
		}
		text, data := h.call("browser_context", args, false)
		if entries, ok := data["entries"].([]any); !ok || len(entries) != 0 || data["name"] != "shop" || !strings.Contains(text, "world shop's journal: 0 entries") {
			t.Errorf("journal since %v: %q %v", since, text, data)
		}
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "journal", "name": "shop", "since": "yesterday"}, "since is neither an entry's sequence number nor an RFC 3339 time"},
		{map[string]any{"action": "journal", "name": "shop", "since": -1}, "since -1"},
		{map[string]any{"action": "journal"}, "needs name"},
		{map[string]any{"action": "list", "since": 3}, "since is for journal and trace, not list"},
	} {
		if text, _ := h.call("browser_context", c.args, true); !strings.Contains(text, c.want) {
			t.Errorf("%v: %q does not say %q", c.args, text, c.want)
		}
	}
	off := newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(cfg *actors.CoordinatorConfig) { cfg.NoJournal = true })
	if text, _ := off.call("browser_context", map[string]any{"action": "journal", "name": "shop"}, true); !strings.Contains(text, "the journal is off") {
		t.Errorf("journal off: %q", text)
	}
}
