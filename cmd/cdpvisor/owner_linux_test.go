package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 27, from the command line: `cdpvisor serve` answers another local
// user's /json/version and websocket with a 403, launches no browser for
// them, and says so in its log; its owner's request launches as before.
func TestServeServesItsOwnerOnly(t *testing.T) {
	actortest.AsOtherUser(t)
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	why := fmt.Sprintf("serves uid 0 only; the connection came from uid %d", actortest.OtherUID)
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"/json/version":       actortest.AsOtherUserGet(t, s.endpoint+"/json/version"),
		"/devtools/browser/x": actortest.AsOtherUserUpgrade(t, s.endpoint+"/devtools/browser/x"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
			t.Errorf("another user's %s: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, why)
		}
	}
	time.Sleep(200 * time.Millisecond) // a launch would have started by now
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("another user's requests launched browsers %v", b)
	}
	if !s.logged(fmt.Sprintf("peerUid=%d", actortest.OtherUID)) {
		t.Errorf("the refusal is not in serve's log:\n%s", s.stderr.String())
	}
	endpointAnswers(t, s.endpoint)
	if b := s.browsers(); len(b) != 1 {
		t.Fatalf("the owner's request: browsers %v, want one", b)
	}
}

// With a token (serve --listen), the token is the gate of every connection,
// another local user's included (a kubelet, a port-forward): 401 without
// it, served with it; the probes answer anyone.
func TestWithATokenTheTokenIsTheGate(t *testing.T) {
	actortest.AsOtherUser(t)
	s := startServe(t, []string{"CDPVISOR_TOKEN=" + testToken}, "--listen", "0.0.0.0:0", "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	for url, want := range map[string]int{
		s.endpoint + "/json/version":                    http.StatusUnauthorized,
		s.endpoint + "/json/version?token=" + testToken: http.StatusOK,
		s.endpoint + "/health/ready":                    http.StatusOK,
	} {
		if a := actortest.AsOtherUserGet(t, url); a.Status != want {
			t.Errorf("another user's GET %s: %d %q %s, want %d", strings.Replace(url, testToken, "TOKEN", 1), a.Status, a.Body, a.Stderr, want)
		}
	}
}
