package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// `cdpvisor world open NAME --allow-host P --deny-host P` makes the world
// with its network policy, list shows it (table and JSON); `wrap
// --isolate=NAME --allow-host P` gives the child's world one; bad patterns
// and folders, and policy flags without a world to give them to, are
// refused (exit 2) before anything is sent; another policy for the kept
// world is refused saying --replace, which replaces it; --allow-file takes
// ~ (resolved here); the variables are not read (command line only).
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
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 || list[0].Name != "agent" ||
		list[0].Policy == nil || list[0].Policy.DenyHosts[0] != "169.254.169.254" || list[1].Policy == nil {
		t.Fatalf("wrap --isolate=agent --deny-host: exit %d %v, stdout %q, stderr %q", code, err, out, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"world", "open", "x", "--allow-host", "https://example.com/"}, `allow: bad host pattern "https://example.com/"`},
		{[]string{"world", "list", "--deny-host", "example.com"}, "--allow-host, --deny-host, --proxy, --allow-file and --replace are a world's network policy, given at its making: for world open, not list"},
		{[]string{"world", "close", "shop", "--replace"}, "for world open, not close"},
		{[]string{"world", "open", "x", "--allow-file", dir}, "--allow-file needs --allow-host, --deny-host or --proxy"},
		{[]string{"world", "open", "x", "--replace"}, "--replace replaces a kept world's network policy with the one given"},
		{[]string{"world", "open", "x", "--deny-host", "a.example", "--allow-file", dir + "/none"}, "--allow-file " + dir + "/none: " + dir + "/none does not exist; make the folder first"},
		{[]string{"wrap", "--isolate=y", "--deny-host", "a.example", "--allow-file", "/etc/passwd", "--", "true"}, "/etc/passwd is not a folder"},
		{[]string{"world", "open", "shop", "--allow-host", "example.org", "--replace"}, ""}, // the owner's change: allowed
		{[]string{"wrap", "--allow-host", "example.com", "--", "true"}, "give the command's world a network policy: add --isolate=NAME"},
		{[]string{"wrap", "--isolate=y", "--deny-host", "a..b", "--", "true"}, `deny: bad host pattern "a..b"`},
	} {
		if c.want == "" { // before it: another policy without --replace
			out, stderr, code := runCLI(t, nil, "world", "open", "shop", "--allow-host", "example.org", "--state-dir", dir)
			if code != 1 || out != "" || !strings.Contains(stderr, "world shop: it keeps another network policy with its profile: allow_hosts kept") ||
				!strings.Contains(stderr, "the kept one applies unless replace is given; use --replace to replace the kept one") {
				t.Errorf("another policy for the kept world: exit %d %q %q", code, out, stderr)
			}
		}
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
	runCLI(t, []string{"CDPVISOR_ALLOW_HOST=example.com", "CDPVISOR_ALLOW_FILE=" + dir, "CDPVISOR_REPLACE=true"}, "world", "open", "plain", "--state-dir", dir)
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "up"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, []string{"HOME=" + home}, "world", "open", "files", "--deny-host", "a.example", "--allow-file", "~/up", "--state-dir", dir); code != 0 {
		t.Fatalf("--allow-file ~/up: exit %d %q", code, stderr)
	}
	out, _, _ = runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	list = nil // a fresh decode: Unmarshal keeps the fields an element's JSON leaves out
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 4 {
		t.Fatalf("world list: %v %s", err, out)
	}
	for _, w := range list {
		switch {
		case w.Name == "plain" && w.Policy != nil:
			t.Errorf("CDPVISOR_ALLOW_HOST gave world plain a policy: %+v", w.Policy)
		case w.Name == "shop" && (w.Policy == nil || len(w.Policy.AllowHosts) != 1 || w.Policy.AllowHosts[0] != "example.org"):
			t.Errorf("shop's policy after the owner's change: %+v", w.Policy)
		case w.Name == "files" && (w.Policy == nil || len(w.Policy.AllowFiles) != 1 || w.Policy.AllowFiles[0] != filepath.Join(home, "up")):
			t.Errorf("files' folders: %+v", w.Policy)
		}
	}
}
