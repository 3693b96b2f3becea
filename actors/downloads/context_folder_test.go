package downloads

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// worldHarness is the harness on an instance with worlds: context W is the
// own context of world alice, any other context no world's.
func worldHarness(t *testing.T) (*harness, *atomic.Int32) {
	asked := &atomic.Int32{}
	h := newHarnessWith(t, func(s *Spec) {
		s.WorldOf = func(ctx context.Context, contextID string) (string, error) {
			asked.Add(1)
			if contextID == "W" {
				return "alice", nil
			}
			return "", nil
		}
	})
	h.ready(1)
	h.peer.setContexts("W", "C")
	return h, asked
}

// A world's downloads land in its own folder under the instance's, and are
// listed with its name; the other contexts' stay in the instance's folder.
func TestWorldDownloadsLandInTheWorldsFolder(t *testing.T) {
	h, _ := worldHarness(t)
	alice := filepath.Join(h.dir, "alice")
	h.page("T1", "W")
	if c := h.peer.expect("Browser.setDownloadBehavior"); c.Params["browserContextId"] != "W" || c.Params["downloadPath"] != alice ||
		c.Params["behavior"] != "allowAndName" || c.Params["eventsEnabled"] != true {
		t.Fatalf("the world's context: %v", c.Params)
	}
	h.page("T2", "C")
	if c := h.peer.expect("Browser.setDownloadBehavior"); c.Params["browserContextId"] != "C" || c.Params["downloadPath"] != h.dir {
		t.Fatalf("a context of no world: %v", c.Params)
	}

	h.begin("T1", "gA", "report.pdf")
	h.begin("T2", "gC", "report.pdf")
	if e := h.entry("gA", InProgress); e.Context != "alice" || e.Path != filepath.Join(alice, "report.pdf") {
		t.Fatalf("the world's download in progress: %+v", e)
	}
	if e := h.entry("gC", InProgress); e.Context != "" || e.Path != filepath.Join(h.dir, "report.pdf") {
		t.Fatalf("the other download in progress: %+v", e)
	}
	h.completeIn(alice, "gA", "alice's")
	h.complete("gC", "not a world's")
	a, c := h.entry("gA", Completed), h.entry("gC", Completed)
	for _, f := range []struct {
		e          Entry
		path, text string
	}{{a, filepath.Join(alice, "report.pdf"), "alice's"}, {c, filepath.Join(h.dir, "report.pdf"), "not a world's"}} {
		if b, err := os.ReadFile(f.path); err != nil || string(b) != f.text || f.e.Path != f.path {
			t.Errorf("%s: %q %v (entry %+v)", f.path, b, err, f.e)
		}
	}
	if _, err := os.Stat(filepath.Join(alice, "gA")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the guid file stays in the world's folder: %v", err)
	}

	// Lists and waits by world.
	if list, err := h.a.ListIn(context.Background(), "alice"); err != nil || len(list) != 1 || list[0] != a {
		t.Errorf("alice's downloads: %+v %v", list, err)
	}
	if list, err := h.a.ListIn(context.Background(), "bob"); err != nil || len(list) != 0 {
		t.Errorf("bob's downloads: %+v %v", list, err)
	}
	if list, _ := h.a.List(context.Background()); len(list) != 2 {
		t.Errorf("every download: %+v", list)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := h.a.WaitIn(ctx, "alice", "gC")
	var unknown *UnknownDownloadError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), `no download "gC" in world alice of instance inst_1`) ||
		!strings.Contains(err.Error(), "gA (report.pdf, completed)") {
		t.Errorf("waiting in alice for another's download: %v", err)
	}
	// Without an id, the world's next download: not another's.
	waited := make(chan Entry, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e, err := h.a.WaitIn(ctx, "alice", "")
		if err != nil {
			t.Error(err)
		}
		waited <- e
	}()
	time.Sleep(50 * time.Millisecond) // let the wait begin first (it also works if not)
	h.begin("T2", "gC2", "other.bin")
	h.entry("gC2", InProgress)
	h.begin("T1", "gA2", "mine.bin")
	h.completeIn(alice, "gA2", "2")
	if e := <-waited; e.ID != "gA2" || e.Context != "alice" || e.State != Completed {
		t.Fatalf("alice's next download: %+v", e)
	}

	// Reconnected, the actor sets the world's folder again.
	h.peer.dropConnection()
	seen := map[string]any{}
	for range 3 {
		c := h.peer.expect("Browser.setDownloadBehavior")
		seen[toString(c.Params["browserContextId"])] = c.Params["downloadPath"]
	}
	if seen[""] != h.dir || seen["W"] != alice || seen["C"] != h.dir {
		t.Errorf("after reconnecting: %v", seen)
	}
}

// A client's own download behaviour in a world's context wins there, as
// in any context: the actor neither sets its own nor tracks the downloads.
func TestWorldClientsOwnBehaviourWins(t *testing.T) {
	h, asked := worldHarness(t)
	watched := h.a.Watch(&clientConn{})
	_ = watched.Write([]byte(`{"id":1,"method":"Browser.setDownloadBehavior","params":{"behavior":"allow","browserContextId":"W","downloadPath":"/elsewhere"}}`), false)
	h.page("T1", "W")
	for asked.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	h.begin("T1", "gA", "a.txt")
	h.page("T2", "C")
	if c := h.peer.expect("Browser.setDownloadBehavior"); c.Params["browserContextId"] != "C" {
		t.Fatalf("the world's context held by a client got cdpvisor's behaviour: %v", c.Params)
	}
	if list, _ := h.a.List(context.Background()); len(list) != 0 {
		t.Fatalf("a download the client directs was tracked: %+v", list)
	}
	watched.Close(1000, "")
	if c := h.peer.expect("Browser.setDownloadBehavior"); c.Params["browserContextId"] != "W" || c.Params["downloadPath"] != filepath.Join(h.dir, "alice") {
		t.Fatalf("after the client went: %v", c.Params)
	}
}

// The instance's folder, emptied, goes with its empty world folders.
func TestEmptyWorldFoldersAreRemoved(t *testing.T) {
	h, _ := worldHarness(t)
	if err := os.MkdirAll(filepath.Join(h.dir, "alice"), 0o700); err != nil { // as Chromium at a download
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.dir, "bob"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "bob", "kept.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h.stop()
	if _, err := os.Stat(filepath.Join(h.dir, "alice")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the empty world folder stays: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "bob", "kept.txt")); err != nil {
		t.Errorf("a world's file: %v", err)
	}
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
