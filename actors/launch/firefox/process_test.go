package firefox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/firefox"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

func firefoxOptions(path string) launch.Options {
	return launch.Options{
		Browser:   launch.Browser{Name: "Firefox ESR", Type: launch.Firefox, Path: path},
		Headless:  true,
		StopGrace: 3 * time.Second,
	}
}

func startFirefox(t *testing.T, opts launch.Options) *launch.Process {
	t.Helper()
	p, err := firefox.Start(context.Background(), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop() })
	return p
}

// bidiStatus asks the BiDi socket session.status, which needs no session.
func bidiStatus(t *testing.T, wsURL string) map[string]any {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("dial the BiDi socket %s: %v", wsURL, err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := conn.WriteJSON(map[string]any{"id": 1, "method": "session.status", "params": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	var reply struct {
		ID     int            `json:"id"`
		Type   string         `json:"type"`
		Result map[string]any `json:"result"`
	}
	if err := conn.ReadJSON(&reply); err != nil {
		t.Fatalf("read the session.status answer: %v", err)
	}
	if reply.ID != 1 || reply.Type != "success" {
		raw, _ := json.Marshal(reply)
		t.Fatalf("session.status answered %s", raw)
	}
	return reply.Result
}

func TestFirefoxStartsServesBiDiAndStopsClean(t *testing.T) {
	p := startFirefox(t, firefoxOptions(actortest.Firefox(t)))
	f := p.Describe()
	if f.Pid <= 0 || f.Port <= 0 || !f.TempProfile || f.Attached || f.WSURL != fmt.Sprintf("ws://127.0.0.1:%d/session", f.Port) {
		t.Fatalf("facts of a fresh Firefox launch: %+v", f)
	}
	if !strings.HasPrefix(f.UserDataDir, f.TempDir) {
		t.Fatalf("temporary profile %s is not inside the launch's directory %s", f.UserDataDir, f.TempDir)
	}
	if data, err := os.ReadFile(filepath.Join(f.UserDataDir, "user.js")); err != nil || !strings.Contains(string(data), `"remote.active-protocols", 1`) {
		t.Fatalf("user.js of the temporary profile: %v\n%s", err, data)
	}
	if st := bidiStatus(t, f.WSURL); st["ready"] != true {
		t.Fatalf("session.status = %v, want ready", st)
	}
	id := p.Identity()
	if err := id.Verify(); err != nil || !id.Headless || id.UserDataDir != f.UserDataDir {
		t.Fatalf("identity %+v: %v", id, err)
	}
	if found, err := proc.BrowsersUnder(f.TempDir); err != nil || len(found) != 1 || found[0].Pid != f.Pid {
		t.Fatalf("browsers under the launch's directory: %+v, %v; want pid %d alone (content processes are helpers)", found, err, f.Pid)
	}
	helpers := actortest.Children(f.Pid)
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Exited():
	default:
		t.Fatal("Stop returned before Firefox exited")
	}
	for _, pid := range helpers {
		if actortest.Alive(pid) {
			t.Errorf("helper %d outlived Stop: %s", pid, actortest.Cmdline(pid))
		}
	}
	if _, err := os.Stat(f.TempDir); !os.IsNotExist(err) {
		t.Fatalf("the launch's directory (profile included) is still there: %v", err)
	}
	if err := id.Verify(); err == nil {
		t.Fatal("the identity of a stopped Firefox still verifies")
	}
}

func TestFirefoxOnUserProfileKeepsIt(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "ff-profile")
	opts := firefoxOptions(actortest.Firefox(t))
	opts.UserDataDir = profile
	p := startFirefox(t, opts)
	f := p.Describe()
	if f.TempProfile || f.UserDataDir != profile {
		t.Fatalf("facts on a user profile: %+v", f)
	}
	if _, err := os.Stat(filepath.Join(profile, "user.js")); !os.IsNotExist(err) {
		t.Errorf("cdpvisor wrote user.js into the user's profile: %v", err)
	}
	// A second Firefox on the same profile is refused as such.
	started := time.Now()
	_, err := firefox.Start(context.Background(), opts, nil)
	t.Logf("second Firefox on the profile, after %s: %v", time.Since(started).Round(time.Millisecond), err)
	var le *launch.Error
	if !errors.As(err, &le) || le.Cause != launch.CauseProfileInUse {
		t.Errorf("second Firefox on a profile in use: %v, want cause %s", err, launch.CauseProfileInUse)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(profile, "prefs.js")); err != nil {
		t.Errorf("the user's profile lost what Firefox wrote: %v", err)
	}
}

func TestFirefoxLaunchErrorsAreClassified(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notDir := script("not-a-profile", "")
	cases := []struct {
		name   string
		opts   func(o *launch.Options)
		cause  launch.Cause // "" when the error comes before any launch
		errHas []string
	}{
		{"missing binary", func(o *launch.Options) { o.Browser.Path = filepath.Join(dir, "no-firefox") },
			launch.CauseNotFound, []string{"no-firefox", "not found or is not executable"}},
		{"early exit", func(o *launch.Options) {
			o.Browser.Path = script("firefox-exits", "echo 'XPCOMGlueLoad error' >&2; exit 3")
		},
			launch.CauseExitedEarly, []string{"exited with code 3", "XPCOMGlueLoad error"}},
		{"never ready", func(o *launch.Options) {
			o.Browser.Path, o.ReadyTimeout = script("firefox-silent", "exec sleep 30"), 300*time.Millisecond
		}, launch.CauseTimedOut, []string{"did not become ready", "no WebDriver BiDi line"}},
		{"profile is a file", func(o *launch.Options) { o.UserDataDir = notDir },
			"", []string{notDir, "is not a directory"}},
		{"profile argument of its own", func(o *launch.Options) { o.ExtraArgs = []string{"-profile", dir} },
			"", []string{`the browser switch "profile" is cdpvisor's to set`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := firefoxOptions(filepath.Join(dir, "unused"))
			c.opts(&opts)
			p, err := firefox.Start(context.Background(), opts, nil)
			if err == nil {
				_ = p.Stop()
				t.Fatal("started")
			}
			var le *launch.Error
			if isLaunch := errors.As(err, &le); isLaunch != (c.cause != "") || (isLaunch && le.Cause != c.cause) {
				t.Errorf("error %v: want cause %q", err, c.cause)
			}
			for _, want := range c.errHas {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q lacks %q", err, want)
				}
			}
			if left := actortest.LeftoverFiles(os.TempDir()); len(left) > 0 {
				t.Errorf("a failed start left %v", left)
			}
		})
	}
}
