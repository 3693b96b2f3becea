package actors

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
)

// Issue 27: every endpoint of a coordinator, the default instance's and an
// instance made later, refuses another local user and launches nothing
// for it; the owner's requests still launch.
func TestEveryInstanceRefusesAnotherUser(t *testing.T) {
	actortest.AsOtherUser(t)
	c := runCoordinator(t, CoordinatorConfig{})
	ctx := served.Context(t)
	extra, err := c.NewInstance(ctx, InstanceRequest{})
	if err != nil {
		t.Fatal(err)
	}
	why := fmt.Sprintf("serves uid %d only; the connection came from uid %d", os.Geteuid(), actortest.OtherUID)
	for _, inst := range []*Instance{c.Default(), extra} {
		for name, a := range map[string]actortest.OtherUsersAnswer{
			"/json/version":       actortest.AsOtherUserGet(t, inst.Proxy.Endpoint()+"/json/version"),
			"/devtools/browser/x": actortest.AsOtherUserUpgrade(t, inst.Proxy.Endpoint()+"/devtools/browser/x"),
		} {
			if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
				t.Errorf("instance %s, another user's %s: %d %q %s, want 403 %q", inst.ID, name, a.Status, a.Body, a.Stderr, why)
			}
		}
	}
	st, err := c.Status(ctx)
	if err != nil || len(st) != 2 || st[0].Browser.State != "idle" || st[1].Browser.State != "idle" || st[0].Browser.Generation+st[1].Browser.Generation != 0 {
		t.Fatalf("after another user's requests: %+v %v, want two idle instances that never launched", st, err)
	}
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, extra.Proxy.Endpoint()+"/json/version", "")
	if code != http.StatusOK {
		t.Fatalf("the owner's /json/version: %d %s", code, body)
	}
}
