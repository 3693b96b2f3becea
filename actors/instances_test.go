package actors

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// The coordinator's instances serve worlds: a world made on its endpoint
// is listed with its client and page, and closed by name.
func TestCoordinatorListsAndClosesWorlds(t *testing.T) {
	c := runCoordinator(t, CoordinatorConfig{})
	ctx := served.Context(t)
	w, err := c.WorldsOf(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := w.PathEndpoint("agent-1")
	if endpoint != c.Default().Proxy.Endpoint()+"/context/agent-1" {
		t.Fatalf("world endpoint %q %v", endpoint, err)
	}
	if code, body, _ := actortest.HTTPDo(t, http.MethodPut, endpoint+"/json/new?about:blank", ""); code != http.StatusOK {
		t.Fatalf("/json/new in the world: %d %s", code, body)
	}
	cl := actortest.DialCDP(t, strings.Replace(endpoint, "http://", "ws://", 1)+"/devtools/browser")
	cl.Call(1, "Browser.getVersion", "", "")
	var list []worlds.Summary
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if list, err = w.Summaries(ctx); err == nil && len(list) == 1 && list[0].Clients == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("worlds %+v %v, want agent-1 with its client", list, err)
		}
	}
	if list[0].Name != "agent-1" || list[0].Pages != 1 || list[0].Context == "" {
		t.Fatalf("worlds %+v, want agent-1 with 1 page and its context", list)
	}
	if err := w.CloseWorld(ctx, "agent-1"); err != nil {
		t.Fatal(err)
	}
	cl.WaitClosedWithin(5 * time.Second)
	// A named world closed is listed for its profile alone.
	if list, _ := w.Summaries(ctx); len(list) != 1 || list[0].Open || !list[0].Kept || list[0].KeptInfo == nil {
		t.Fatalf("worlds after closing: %+v, want agent-1 kept and not open", list)
	}
	if err := w.CloseWorld(ctx, "agent-1"); !errors.Is(err, worlds.ErrUnknownWorld) {
		t.Fatalf("closing it again: %v, want ErrUnknownWorld", err)
	}
	if err := w.CloseWorld(ctx, "no/such"); !errors.Is(err, worlds.ErrBadName) {
		t.Fatalf("closing a bad name: %v, want ErrBadName", err)
	}
}
