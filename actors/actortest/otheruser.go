//go:build unix

package actortest

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// OtherUID is the local user the tests play another user with: nobody.
const OtherUID = 65534

// AsOtherUser is how a test runs a command as another local user (nobody,
// uid 65534): it takes root. Without root the test is skipped on a
// developer's machine, and fails when CI is set (CI runs as root).
func AsOtherUser(t testing.TB) *syscall.SysProcAttr {
	t.Helper()
	if os.Geteuid() != 0 {
		Missing(t, "root (the test runs a client as another user, uid 65534, and only root can)")
	}
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: OtherUID, Gid: OtherUID, NoSetGroups: true}}
}

// OtherUsersAnswer is what a client of another user got from an endpoint.
type OtherUsersAnswer struct {
	Status int    // the HTTP status; 0: no answer
	Body   string // the answer's body (nothing for a websocket)
	Stderr string // curl's, when there was no answer
}

// AsOtherUserGet is a GET of url by curl run as another user (see
// AsOtherUser).
func AsOtherUserGet(t testing.TB, url string) OtherUsersAnswer {
	t.Helper()
	return asOtherUser(t, url)
}

// AsOtherUserPut is a PUT of url (as /json/new wants) by curl run as
// another user.
func AsOtherUserPut(t testing.TB, url string) OtherUsersAnswer {
	t.Helper()
	return asOtherUser(t, url, "-X", "PUT")
}

// AsOtherUserUpgrade asks for a websocket at url, by curl run as another
// user: a 101 answer is the websocket opened.
func AsOtherUserUpgrade(t testing.TB, url string) OtherUsersAnswer {
	t.Helper()
	return asOtherUser(t, url, "-H", "Connection: Upgrade", "-H", "Upgrade: websocket",
		"-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")
}

func asOtherUser(t testing.TB, url string, extra ...string) OtherUsersAnswer {
	t.Helper()
	attr := AsOtherUser(t)
	curl, err := exec.LookPath("curl")
	if err != nil {
		Missing(t, "curl")
	}
	// -q: no ~/.curlrc; no proxy from the environment; the status on a line of its own at the end.
	args := append([]string{"-q", "-sS", "--noproxy", "*", "--max-time", "5", "-o", "-", "-w", "\n%{http_code}"}, extra...)
	cmd := exec.Command(curl, append(args, url)...)
	cmd.SysProcAttr = attr
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	_ = cmd.Run() // curl's exit code says less than its output: a 101 ends in a timeout
	out := strings.TrimRight(stdout.String(), "\n")
	i := strings.LastIndexByte(out, '\n')
	status, _ := strconv.Atoi(out[i+1:])
	return OtherUsersAnswer{Status: status, Body: out[:max(i, 0)], Stderr: stderr.String()}
}
