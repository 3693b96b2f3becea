package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// `cdpvisor world open NAME --allow-host P --deny-host P` makes the world
// with its network policy, list shows it (table and JSON); `wrap
// --isolate=NAME --allow-host P` gives the child's world one; bad patterns
// and policy flags without a world to give them to are refused (exit 2)
// before anything is sent; the variables are not read (command line only).
func TestWorldPolicyFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	out, stderr, code := runCLI(t, nil, "world", "open", "shop", "--state-dir", dir,
		"--allow-host", "shop.example.com", "--allow-host", "*.cdn.example,127.0.0.1:8080", "--deny-host", "ads.cdn.example")
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("world open with a policy: exit %d %q %q", code, out, stderr)
	}
	out, _, _ = runCLI(t, nil, "world", "list", "--state-dir", dir)
	if !strings.Contains(out, "NETWORK") || !strings.Contains(out, "allow shop.example.com,*.cdn.example,127.0.0.1:8080 deny ads.cdn.example") {
		t.Errorf("world list:\n%s", out)
	}
	out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate=agent", "--deny-host", "169.254.169.254", "--",
		"sh", "-c", `"$0" world list --json --state-dir "$1"`, binary, dir)
	var list []state.WorldStatus
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 || list[0].Name != "agent" ||
		list[0].Policy == nil || list[0].Policy.DenyHosts[0] != "169.254.169.254" || list[1].Policy == nil {
		t.Fatalf("wrap --isolate=agent --deny-host: exit %d %v, stdout %q, stderr %q", code, err, out, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"world", "open", "x", "--allow-host", "https://example.com/"}, `allow: bad host pattern "https://example.com/"`},
		{[]string{"world", "list", "--deny-host", "example.com"}, "--allow-host, --deny-host and --proxy are a world's network policy, given at its making: for world open, not list"},
		{[]string{"world", "open", "shop", "--allow-host", "example.org"}, ""}, // the owner's change: allowed
		{[]string{"wrap", "--allow-host", "example.com", "--", "true"}, "give the command's world a network policy: add --isolate=NAME"},
		{[]string{"wrap", "--isolate=y", "--deny-host", "a..b", "--", "true"}, `deny: bad host pattern "a..b"`},
	} {
		out, stderr, code := runCLI(t, nil, append(c.args, "--state-dir", dir)...)
		if c.want == "" {
			if code != 0 {
				t.Errorf("%v: exit %d %q", c.args, code, stderr)
			}
			continue
		}
		if code != 2 || !strings.Contains(stderr, c.want) || (c.args[0] == "world" && out != "") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 saying %q", c.args, code, out, stderr, c.want)
		}
	}
	runCLI(t, []string{"CDPVISOR_ALLOW_HOST=example.com"}, "world", "open", "plain", "--state-dir", dir)
	out, _, _ = runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	list = nil // a fresh decode: Unmarshal keeps the fields an element's JSON leaves out
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 3 {
		t.Fatalf("world list: %v %s", err, out)
	}
	for _, w := range list {
		switch {
		case w.Name == "plain" && w.Policy != nil:
			t.Errorf("CDPVISOR_ALLOW_HOST gave world plain a policy: %+v", w.Policy)
		case w.Name == "shop" && (w.Policy == nil || len(w.Policy.AllowHosts) != 1 || w.Policy.AllowHosts[0] != "example.org"):
			t.Errorf("shop's policy after the owner's change: %+v", w.Policy)
		}
	}
}
