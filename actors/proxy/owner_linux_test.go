package proxy_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// Issue 27: another local user gets no /json answer and no websocket, and
// launches no browser; the owner's clients work as before.
func TestAnotherUserIsRefusedWithoutLaunching(t *testing.T) {
	actortest.AsOtherUser(t)
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	why := fmt.Sprintf("serves uid %d only; the connection came from uid %d", os.Geteuid(), actortest.OtherUID)
	ep := inst.Proxy.Endpoint()
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"GET /json/version":             actortest.AsOtherUserGet(t, ep+"/json/version"),
		"PUT /json/new":                 actortest.AsOtherUserPut(t, ep+"/json/new?about:blank"),
		"websocket /devtools/browser/x": actortest.AsOtherUserUpgrade(t, ep+"/devtools/browser/x"),
		"websocket /devtools/page/x":    actortest.AsOtherUserUpgrade(t, ep+"/devtools/page/x"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
			t.Errorf("another user's %s: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, why)
		}
	}
	if st, _ := inst.Browser.Status(served.Context(t)); st.State != fsm.BrowserIdle || st.Generation != 0 {
		t.Fatalf("another user's requests launched a browser: %+v", st)
	}
	c, resp, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser/x", nil)
	if err != nil {
		t.Fatalf("the owner's websocket: %v", err)
	}
	c.Close()
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the owner's websocket: %d", resp.StatusCode)
	}
	if code, body := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/version", ""); code != http.StatusOK {
		t.Fatalf("the owner's /json/version: %d %s", code, body)
	}
}
