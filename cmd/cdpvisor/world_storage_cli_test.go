package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// signedInState is a storage state with one sign-in: a cookie and a token
// in its origin's localStorage.
const signedInState = `{"cookies":[{"name":"sid","value":"s3cret","domain":"shop.test","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"}],` +
	`"origins":[{"origin":"https://shop.test","localStorage":[{"name":"token","value":"t0k"}]}]}`

// writeFile writes a file in dir and answers its path.
func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// What `world` and `wrap` refuse of a seed, with exit 2 and what was
// expected, before any coordinator is asked: the state dir is empty, so
// a request would have failed otherwise ("no running coordinator").
func TestWorldSeedRefusedBeforeAnythingIsSent(t *testing.T) {
	empty, files := t.TempDir(), t.TempDir()
	bad := writeFile(t, files, "bad.json", `{"cookies": [], "origins": [], "version": 2}`)
	notJSON := writeFile(t, files, "notes.txt", "user=alice\n")
	good := writeFile(t, files, "good.json", signedInState)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"world", "open", "shop", "--storage-state", bad}, []string{"--storage-state " + bad, "not a Playwright storage state", `unknown field "version"`, "expected Playwright's storage state"}},
		{[]string{"world", "open", "shop", "--storage-state", notJSON}, []string{"not a JSON object", "expected Playwright's storage state"}},
		{[]string{"world", "open", "shop", "--storage-state", filepath.Join(files, "none.json")}, []string{"none.json", "no such file"}},
		{[]string{"world", "open", "mail", "--from-user-browser=mail.test"}, []string{"--from-user-browser", `"mail.test" is not an http or https origin`}},
		{[]string{"world", "open", "mail", "--from-user-browser=,"}, []string{"names no origin"}},
		{[]string{"world", "open", "mail", "--origin", "https://mail.test"}, []string{"--origin says which of --from-world's origins", "--from-world NAME"}},
		{[]string{"world", "open", "mail", "--from-world", "a/b"}, []string{"--from-world", "invalid world name"}},
		{[]string{"world", "list", "--storage-state", good}, []string{"are for world open, not list"}},
		{[]string{"world", "open", "shop", "--forget"}, []string{"--forget is for world close"}},
		{[]string{"world", "close", "shop", "--output", "x.json"}, []string{"--output is for world export"}},
		{[]string{"world", "export"}, []string{"world export needs a world's name"}},
		{[]string{"wrap", "--storage-state", good, "--", "true"}, []string{"seed the command's world: add --isolate=NAME"}},
		{[]string{"wrap", "--isolate=shop", "--storage-state", bad, "--", "sh", "-c", "echo ran"}, []string{"not a Playwright storage state"}},
		{[]string{"wrap", "--isolate=shop", "--from-user-browser=mail.test", "--", "sh", "-c", "echo ran"}, []string{"not an http or https origin"}},
	} {
		out, stderr, code := runCLI(t, nil, append(c.args, "--state-dir", empty)...)
		if c.args[0] == "wrap" { // wrap's flags end at the command
			out, stderr, code = runCLI(t, nil, append([]string{"wrap", "--state-dir", empty}, c.args[1:]...)...)
		}
		if code != 2 || out != "" || strings.Contains(stderr, "no running cdpvisor coordinator") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing on stdout, refused before looking", c.args, code, out, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: %q does not say %q", c.args, stderr, w)
			}
		}
	}
}

// world open --storage-state seeds the world; export prints its storage
// state (or writes it, private, with --output); list shows it kept; close
// --forget deletes it. A refused seed makes nothing.
func TestWorldStorageFromTheCommandLine(t *testing.T) {
	dir, files := t.TempDir(), t.TempDir()
	startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	good := writeFile(t, files, "shop.json", signedInState)
	out, stderr, code := runCLI(t, nil, "world", "open", "shop", "--storage-state", good, "--state-dir", dir)
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") || strings.Count(out, "\n") != 1 ||
		!strings.Contains(stderr, "world shop seeded: 1 cookie(s), localStorage of 1 origin(s)") {
		t.Fatalf("world open --storage-state: exit %d, stdout %q, stderr %q", code, out, stderr)
	}

	out, stderr, code = runCLI(t, nil, "world", "export", "shop", "--state-dir", dir)
	st, err := storagestate.Parse([]byte(out))
	if code != 0 || err != nil || len(st.Cookies) != 1 || st.Cookies[0].Value != "s3cret" || len(st.Origins) != 1 {
		t.Fatalf("world export: exit %d, %v, stdout %q, stderr %q", code, err, out, stderr)
	}
	saved := filepath.Join(files, "out.json")
	writeFile(t, files, "out.json", "old") // an existing file is made private too
	os.Chmod(saved, 0o644)
	if _, stderr, code := runCLI(t, nil, "world", "export", "shop", "--output", saved, "--state-dir", dir); code != 0 || !strings.Contains(stderr, "wrote world shop's storage state to "+saved) {
		t.Fatalf("world export --output: exit %d %q", code, stderr)
	}
	if fi, err := os.Stat(saved); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the exported file: %v %v, want mode 0600", fi, err)
	}
	if data, _ := os.ReadFile(saved); string(data) != out {
		t.Errorf("--output wrote %q, stdout had %q", data, out)
	}

	out, _, code = runCLI(t, nil, "world", "list", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "KEPT") || !strings.Contains(out, "SAVED") || !strings.Contains(out, "yes") {
		t.Errorf("world list: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 || !list[0].Kept || !list[0].Open {
		t.Errorf("world list --json: exit %d %v\n%s", code, err, out)
	}

	// Closed without forget, it stays kept and listed, closed.
	if out, stderr, code := runCLI(t, nil, "world", "close", "shop", "--state-dir", dir); code != 0 || !strings.Contains(out, "stay kept") {
		t.Fatalf("world close shop: exit %d %q %q", code, out, stderr)
	}
	if out, _, _ := runCLI(t, nil, "world", "list", "--state-dir", dir); !strings.Contains(out, "(closed)") {
		t.Errorf("a closed kept world is not listed closed:\n%s", out)
	}
	if out, _, code := runCLI(t, nil, "world", "export", "shop", "--state-dir", dir); code != 0 || !strings.Contains(out, "s3cret") {
		t.Errorf("export of the closed kept world: exit %d %q", code, out)
	}
	if out, stderr, code := runCLI(t, nil, "world", "close", "shop", "--forget", "--state-dir", dir); code != 0 || !strings.Contains(out, "forgot world shop") {
		t.Fatalf("world close --forget: exit %d %q %q", code, out, stderr)
	}
	if out, _, _ := runCLI(t, nil, "world", "list", "--state-dir", dir); !strings.Contains(out, "no worlds open or kept") {
		t.Errorf("after forget:\n%s", out)
	}
	if _, stderr, code := runCLI(t, nil, "world", "close", "shop", "--forget", "--state-dir", dir); code != 1 || !strings.Contains(stderr, `unknown world "shop"`) {
		t.Errorf("forgetting a forgotten world: exit %d %q", code, stderr)
	}

	// A refused seed makes nothing: the coordinator is not on the user's
	// browser.
	if out, stderr, code := runCLI(t, nil, "world", "open", "mail", "--from-user-browser=https://mail.test", "--state-dir", dir); code != 1 || out != "" ||
		!strings.Contains(stderr, "--attach") {
		t.Errorf("--from-user-browser without --attach: exit %d %q %q", code, out, stderr)
	}
	if out, _, _ := runCLI(t, nil, "world", "list", "--json", "--state-dir", dir); strings.TrimSpace(out) != "[]" {
		t.Errorf("a refused seed made a world: %s", out)
	}
}

// wrap --isolate=NAME --storage-state seeds the world before the child
// starts: the child's own export finds the sign-in.
func TestWrapIsolateSeedsTheWorldBeforeTheChild(t *testing.T) {
	dir, files := t.TempDir(), t.TempDir()
	startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	good := writeFile(t, files, "shop.json", signedInState)
	out, stderr, code := runWrapCLI(t, "--state-dir", dir, "--isolate=shop", "--storage-state", good, "--",
		"sh", "-c", `"$0" world export shop --state-dir "$1"`, binary, dir)
	if code != 0 || !strings.Contains(out, "s3cret") || !strings.Contains(stderr, "seeded before the command started") {
		t.Fatalf("wrap --isolate=shop --storage-state: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A fresh world takes a seed too, and is not kept.
	out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate", "--from-world", "shop", "--origin", "https://shop.test", "--",
		"sh", "-c", `echo "$CDP_ENDPOINT"`)
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("wrap --isolate --from-world shop: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
