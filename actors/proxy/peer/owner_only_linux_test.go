package peer_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/proxy/peer"
)

// Issue 27: another local user's client gets a 403 naming both users, for
// a plain request and for a websocket upgrade; nothing it sent reaches the
// server; the owner's log says so once; the owner's own client is served.
func TestOwnerOnlyRefusesAnotherUser(t *testing.T) {
	actortest.AsOtherUser(t)
	var logs actortest.SyncBuffer
	inner, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := peer.OwnerOnly(inner, zerolog.New(&logs))
	var served atomic.Int32
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		io.WriteString(w, "served")
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + l.Addr().String()

	want := fmt.Sprintf("cdpvisor: refused: this endpoint serves uid %d only; the connection came from uid %d", os.Geteuid(), actortest.OtherUID)
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"GET":               actortest.AsOtherUserGet(t, url+"/json/version"),
		"websocket upgrade": actortest.AsOtherUserUpgrade(t, url+"/devtools/browser/x"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, want) {
			t.Errorf("another user's %s: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, want)
		}
	}
	if n := served.Load(); n != 0 {
		t.Fatalf("the server served %d of another user's requests", n)
	}
	if warned := strings.Count(logs.String(), fmt.Sprintf(`"peerUid":%d`, actortest.OtherUID)); warned != 1 {
		t.Errorf("%d warnings with the peer's uid, want 1 (the second refusal within the period is counted, not logged):\n%s", warned, logs.String())
	}
	resp, err := http.Get(url + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "served" || served.Load() != 1 {
		t.Fatalf("the owner's request: %d %q", resp.StatusCode, body)
	}
}
