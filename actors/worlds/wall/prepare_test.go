package wall

import (
	"context"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/transport"
)

// preparingWorld owns the context "W"; its PreparePage tells the test of
// the page and waits until the test lets it end.
type preparingWorld struct {
	benchWorld
	asked chan string
	done  chan struct{}
}

func (w preparingWorld) PreparePage(ctx context.Context, _ int, target string) {
	w.asked <- target
	select {
	case <-w.done:
	case <-ctx.Done():
	}
}

// A page a world's client makes is prepared by the world while the client
// goes on: it hears of the page at once and its set-up reaches the browser;
// its navigation, and what it sends after, wait until the page is
// prepared, then go in the order sent.
func TestWorldClientsNavigationWaitsForItsPageToBePrepared(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	world := preparingWorld{asked: make(chan string, 1), done: make(chan struct{})}
	serve(t, client, chromium, world)
	expect := func(id int64, method string) {
		t.Helper()
		if h := head(chromium.Next(t)); !h.HasID || h.ID != id || !h.Is(method) {
			t.Fatalf("Chromium got %+v, want %d %s", h, id, method)
		}
	}
	client.In <- []byte(`{"id":1,"method":"Target.createTarget","params":{"url":"about:blank"}}`)
	expect(1, "Target.createTarget")
	chromium.In <- []byte(`{"id":1,"result":{"targetId":"T1"}}`)
	if h := head(client.Next(t)); !h.HasID || h.ID != 1 {
		t.Fatalf("the client got %+v, want the answer to its createTarget while the page is prepared", h)
	}
	select {
	case target := <-world.asked:
		if target != "T1" {
			t.Fatalf("the world was asked to prepare %q, want T1", target)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the world was not asked to prepare the page")
	}
	client.In <- []byte(`{"id":2,"method":"Page.enable","sessionId":"S"}`)
	expect(2, "Page.enable")
	client.In <- []byte(`{"id":3,"method":"Page.navigate","params":{"url":"http://127.0.0.1:1/"},"sessionId":"S"}`)
	client.In <- []byte(`{"id":4,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"S"}`)
	select {
	case b := <-chromium.Out:
		t.Fatalf("Chromium got %s while the page was being prepared", b)
	case <-time.After(300 * time.Millisecond):
	}
	close(world.done)
	expect(3, "Page.navigate")
	expect(4, "Runtime.evaluate")
	client.In <- []byte(`{"id":5,"method":"Page.reload","sessionId":"S"}`)
	expect(5, "Page.reload")
}

func (preparingWorld) Walled() bool                           { return false }
func (preparingWorld) DoorURL(string) error                   { return nil }
func (preparingWorld) DoorFile(string) error                  { return nil }
func (preparingWorld) DoorDownloads(p string) (string, error) { return p, nil }

// head is msg's head; a message it cannot read has none (no id).
func head(msg []byte) transport.Head {
	h, _ := transport.ScanHead(msg)
	return h
}
