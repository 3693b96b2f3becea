package worlds_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// newRoomFixture is a fixture whose instance has at most max worlds open,
// its named worlds kept in dir when dir is not "".
func newRoomFixture(t *testing.T, max int, dir string) *fixture {
	t.Helper()
	var kept *profiles.Actor
	if dir != "" {
		kept = profiles.New(profiles.Spec{Dir: dir, Log: served.Logger(t)})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- kept.Serve(ctx) }()
		t.Cleanup(func() { cancel(); <-done }) // registered first, so run after the instance's
	}
	inst := served.StartInstanceWorlds(t, served.FakeLaunch(t), proxy.Spec{}, func(s *worlds.Spec) {
		s.MaxWorlds = max
		if kept != nil {
			s.Profiles = kept
		}
	})
	return &fixture{t: t, inst: inst, whole: inst.DialCDP(t), ids: 100}
}

// room is the instance's open worlds and limit, as Room answers them.
func (f *fixture) room() (int, int) {
	f.t.Helper()
	open, max, err := f.inst.Worlds.Room(f.context())
	if err != nil {
		f.t.Fatal(err)
	}
	return open, max
}

// With MaxWorlds 2, a third new world is refused with ErrFull naming the
// count and the limit, with its fixes, by every way a world is made (Make,
// a client's first use of /context/NAME, PUT with or without a policy or a
// seed); a world open is still found; once one closes, a new one opens.
func TestMaxWorldsRefusesANewWorldPastTheLimit(t *testing.T) {
	f := newRoomFixture(t, 2, "")
	ctx := f.context()
	if open, max := f.room(); open != 0 || max != 2 {
		t.Fatalf("Room of a fresh instance: %d open, max %d; want 0 and 2", open, max)
	}
	for _, name := range []string{"a", "b"} {
		if made, err := f.inst.Worlds.Make(ctx, name); err != nil || !made {
			t.Fatalf("Make %s: made %v, %v", name, made, err)
		}
	}
	made, err := f.inst.Worlds.Make(ctx, "c")
	if made || !errors.Is(err, worlds.ErrFull) || !strings.Contains(err.Error(), "2 open, at most 2") {
		t.Fatalf("Make c past the limit: made %v, %v; want ErrFull naming 2 open, at most 2", made, err)
	}
	if said := remedy.Explain(err, remedy.Plain); !strings.Contains(said, "close a world") || !strings.Contains(said, "max worlds") {
		t.Errorf("the refusal's fixes: %q", said)
	}
	if made, err := f.inst.Worlds.Make(ctx, "a"); made || err != nil {
		t.Errorf("Make a, open already, at the limit: made %v, %v; want found", made, err)
	}
	if _, err := worldapi.Open(ctx, f.inst.Proxy.Endpoint(), "b"); err != nil {
		t.Errorf("PUT b, open already, at the limit: %v", err)
	}
	if got := f.targets(f.world("a")); len(got) != 0 { // a client of an open world is let in
		t.Errorf("world a lists %v", got)
	}
	if open, max := f.room(); open != 2 || max != 2 {
		t.Errorf("Room at the limit: %d open, max %d", open, max)
	}

	// Every other way in answers 429 with Retry-After and the fixes.
	ep := f.inst.Proxy.Endpoint()
	for what, url := range map[string]string{"PUT": ep + worldapi.Path + "/c", "/context/c/json/version": ep + "/context/c/json/version"} {
		method := http.MethodGet
		if what == "PUT" {
			method = http.MethodPut
		}
		code, body, header := actortest.HTTPDo(t, method, url, "")
		if code != http.StatusTooManyRequests || header.Get("Retry-After") != "5" || !strings.Contains(body, "2 open, at most 2") || !strings.Contains(body, "close a world") {
			t.Errorf("%s past the limit: %d, Retry-After %q, %q; want 429, 5 and the fixes", what, code, header.Get("Retry-After"), body)
		}
	}
	_, resp, err := websocketDial(f.inst.WS() + "/context/c/devtools/browser/any")
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a client socket of a new world past the limit: %v %+v; want 429 with Retry-After", err, resp)
	}
	for what, req := range map[string]worldapi.OpenRequest{
		"with a policy": {Policy: worldapi.Policy{AllowHosts: []string{"example.com"}}},
		"with a seed":   {Seed: worldapi.Seed{StorageState: []byte(`{"cookies":[],"origins":[]}`)}},
	} {
		if _, err := worldapi.OpenWith(ctx, ep, "c", req); !errors.Is(err, worldapi.ErrFull) || !strings.Contains(err.Error(), "429") {
			t.Errorf("PUT c %s past the limit: %v; want ErrFull (429)", what, err)
		}
	}
	if list, _ := f.inst.Worlds.List(ctx); len(list) != 2 {
		t.Errorf("the refusals made worlds: %+v", list)
	}

	if err := f.inst.Worlds.Close(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if open, _ := f.room(); open != 1 {
		t.Errorf("Room after a closed: %d open, want 1", open)
	}
	if ws, err := worldapi.Open(ctx, ep, "c"); err != nil || !ws.Created {
		t.Fatalf("PUT c once a closed: %+v %v", ws, err)
	}
	if _, err := f.inst.Worlds.Make(ctx, "a"); !errors.Is(err, worlds.ErrFull) {
		t.Errorf("a made again past the limit: %v, want ErrFull", err)
	}
}

// A kept world that is closed is on disk alone: it takes no room, until
// it is opened again.
func TestMaxWorldsCountsNoClosedKeptWorld(t *testing.T) {
	f := newRoomFixture(t, 1, filepath.Join(t.TempDir(), "profiles"))
	ctx, ep := f.context(), f.inst.Proxy.Endpoint()
	if _, err := worldapi.Open(ctx, ep, "shop"); err != nil {
		t.Fatal(err)
	}
	if err := f.inst.Worlds.Close(ctx, "shop"); err != nil {
		t.Fatal(err)
	}
	list, err := f.inst.Worlds.List(ctx)
	if err != nil || len(list) != 1 || list[0].Open || !list[0].Kept {
		t.Fatalf("after closing shop: %+v %v; want it listed, kept and closed", list, err)
	}
	if open, max := f.room(); open != 0 || max != 1 {
		t.Errorf("Room with shop kept and closed: %d open, max %d; want 0 and 1", open, max)
	}
	if _, err := worldapi.Open(ctx, ep, "mail"); err != nil {
		t.Fatalf("mail with shop kept and closed: %v", err)
	}
	if _, err := worldapi.Open(ctx, ep, "shop"); !errors.Is(err, worldapi.ErrFull) {
		t.Errorf("shop opened again past the limit: %v, want ErrFull", err)
	}
}

// No limit by default: Room says 0.
func TestMaxWorldsZeroIsNoLimit(t *testing.T) {
	f := newRoomFixture(t, 0, "")
	for _, name := range []string{"a", "b", "c", "d"} {
		if _, err := f.inst.Worlds.Make(f.context(), name); err != nil {
			t.Fatalf("Make %s without a limit: %v", name, err)
		}
	}
	if open, max := f.room(); open != 4 || max != 0 {
		t.Errorf("Room: %d open, max %d; want 4 and 0", open, max)
	}
}
