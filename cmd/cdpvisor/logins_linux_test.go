package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// userCookie is a cookie as Storage.getCookies answers it.
type userCookie struct {
	Name, Value, Domain, Path string
	Expires                   float64
	HTTPOnly                  bool `json:"httpOnly"`
	Secure                    bool
}

// cookiesOf reads every cookie of the user's browser's own (default)
// context, straight from it over CDP: not through cdpvisor.
func (u *usersChromium) cookiesOf(t *testing.T) []userCookie {
	t.Helper()
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, fmt.Sprintf("http://127.0.0.1:%d/json/version", u.port(t)), &version)
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	defer cl.Conn.Close()
	answer := cl.Call(1, "Storage.getCookies", "", "")
	var got struct{ Cookies []userCookie }
	if err := json.Unmarshal(answer.Result, &got); err != nil || answer.Error != nil {
		t.Fatalf("Storage.getCookies on the user's browser: %v %s", err, answer.Raw)
	}
	slices.SortFunc(got.Cookies, func(x, y userCookie) int { return strings.Compare(x.Domain+x.Name, y.Domain+y.Name) })
	return got.Cookies
}

// Fork: the user's browser (a test Chromium on its default profile, as
// the --attach tests have it) is signed in to two local sites, their tabs
// open; a world
// forked from it with one origin (cdpvisor world open NAME
// --from-user-browser=ORIGIN) is signed in to that one and not the other;
// the agent logging out in its world leaves the user's browser's cookies
// (read from it directly) and sign-ins as they were.
func TestWorldForkedFromTheUsersBrowser(t *testing.T) {
	actortest.ClientsDir(t)
	a, b := newLoginSite(t, "127.0.0.1"), newLoginSite(t, "localhost")
	u := startUsersChromium(t, t.TempDir(), "--ignore-certificate-errors")
	users := fmt.Sprintf("cdp=http://127.0.0.1:%d", u.port(t))
	expectSeen(t, "the user signing in to both sites in their browser",
		logins(t, users, "keep", "site="+a.URL, "signin=ann", "site="+b.URL, "signin=ben"), a.signedIn("ann"), b.signedIn("ben"))
	before := u.cookiesOf(t)
	if len(before) != 2 {
		t.Fatalf("the user's browser has cookies %+v, want the two sites' sessions", before)
	}

	dir := t.TempDir()
	s := startServe(t, []string{"HOME=" + u.home}, "--attach", "--browser", "chromium", "--state-dir", dir, "--log-level", "debug")
	out, stderr, code := runCLI(t, nil, "world", "open", "forked", "--from-user-browser="+a.URL, "--state-dir", dir)
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("world open forked --from-user-browser=%s: exit %d %q %q", a.URL, code, out, stderr)
	}
	forked := "cdp=" + strings.TrimSpace(out)
	expectSeen(t, "the forked world on both sites, then logging out of the first",
		logins(t, forked, "site="+a.URL, "whoami", "site="+b.URL, "whoami", "site="+a.URL, "logout", "whoami"),
		a.signedIn("ann"), anonymous, shown{Server: "signed-out", Token: "none"}, anonymous)
	if b := s.browsers(); len(b) != 0 {
		t.Errorf("the coordinator on the user's browser launched %v", b)
	}

	// Nothing went back to the user's browser: its cookies are as they
	// were, and it is still signed in to both (the site keeps sessions
	// after a logout, so only its cookie and token say who it is).
	if after := u.cookiesOf(t); !slices.Equal(before, after) {
		t.Errorf("the user's browser's cookies changed after the agent logged out in its world:\nbefore %+v\nafter  %+v", before, after)
	}
	expectSeen(t, "the user's browser after the agent logged out",
		logins(t, users, "site="+a.URL, "whoami", "site="+b.URL, "whoami"), a.signedIn("ann"), b.signedIn("ben"))
	noSecretsLogged(t, a, s)
	noSecretsLogged(t, b, s)
}

// A profiles directory another user owns is refused: a world's profile
// in it is not read, nothing is written into it, and the coordinator says
// why, whether it refuses to start or starts keeping nothing.
func TestProfilesOfAnotherUserAreRefused(t *testing.T) {
	actortest.AsOtherUser(t)
	actortest.ClientsDir(t)
	site := newLoginSite(t, "127.0.0.1")
	dir := t.TempDir()
	profiles := filepath.Join(dir, "profiles")
	planted := profileOf(dir, "shop")
	sid, token := site.signIn("mallory")
	state := fmt.Sprintf(`{"cookies":[{"name":%q,"value":%q,"domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"}],`+
		`"origins":[{"origin":%q,"localStorage":[{"name":"token","value":%q}]}]}`, sessionCookie, sid, site.URL, token)
	if err := os.Mkdir(profiles, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{planted, profiles} {
		if err := os.Lchown(p, actortest.OtherUID, actortest.OtherUID); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _ = os.RemoveAll(profiles) })
	stat, _ := os.Stat(planted)

	cmd := exec.Command(binary, append([]string{"serve"}, loginServeArgs(t, dir)...)...)
	var stderr actortest.SyncBuffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, stdout)
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("serve did not exit within 20 s of SIGTERM")
		}
	})
	says := func() bool { return strings.Contains(stderr.String(), profiles) }
	endpoint, started := "", false
	select {
	case endpoint, started = <-line:
	case <-time.After(15 * time.Second):
		t.Fatalf("serve neither started nor refused within 15 s:\n%s", stderr.String())
	}
	if !started {
		// Refused to start: it must say which directory and why.
		err := <-done
		done <- err
		if err == nil || !says() {
			t.Fatalf("serve ended (%v) without saying the profiles dir %s is refused:\n%s", err, profiles, stderr.String())
		}
		t.Logf("serve refused to start (%v): %s", err, stderr.String())
		return
	}
	// Started keeping nothing: shop is not signed in from the other
	// user's file, and what its agent signs in to is not written there.
	expectSeen(t, "shop with another user's profiles dir",
		logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami", "signin=nina"), anonymous, site.signedIn("nina"))
	time.Sleep(3 * time.Second) // a read (1.5 s) and a write (0.2 s) would have come by now
	entries, _ := os.ReadDir(profiles)
	now, _ := os.Stat(planted)
	if len(entries) != 1 || now == nil || !now.ModTime().Equal(stat.ModTime()) || now.Size() != stat.Size() {
		t.Errorf("the other user's profiles dir was written: %v", entries)
	}
	if !says() {
		t.Errorf("the coordinator does not say it refused the profiles dir %s:\n%s", profiles, stderr.String())
	}
	_ = endpoint
}
