package relay

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/journal"
)

// benchWorld is a world that owns the context "W" and nothing else.
type benchWorld struct{ unwalled }

func (benchWorld) Name() string { return "bench" }
func (benchWorld) Context(context.Context, browser.Endpoint) (string, error) {
	return "W", nil
}
func (benchWorld) Owns(id string) bool                                  { return id == "W" }
func (benchWorld) Made() []string                                       { return nil }
func (benchWorld) AddMade(context.Context, int, string) error           { return nil }
func (benchWorld) Disposed(int, string)                                 {}
func (benchWorld) PreparePage(context.Context, int, string)             {}
func (benchWorld) BeforeClose(context.Context, int, string)             {}
func (benchWorld) Proxy() (string, string)                              { return "", "" }
func (benchWorld) CloseBrowser(context.Context, browser.Endpoint) error { return nil }

// BenchmarkRelayRoundTripWorld is BenchmarkRelayRoundTrip's 200-byte round
// trip through the relay of a world's client and of the whole browser's,
// side by side: a page's traffic crosses the wall on the fast path, its
// head read once more for the wall's method and session. world+journal is
// the world's with its journal kept (issue 37: each command recorded at
// its request, written with its answer by the JournalActor, a file of a
// temporary directory); with -count N the sides run interleaved.
func BenchmarkRelayRoundTripWorld(b *testing.B) {
	j := journal.New(journal.Spec{Dir: filepath.Join(b.TempDir(), "journal"), Log: zerolog.Nop()})
	jctx, jstop := context.WithCancel(context.Background())
	jdone := make(chan error, 1)
	go func() { jdone <- j.Serve(jctx) }()
	defer func() { jstop(); <-jdone }()
	for _, side := range []struct {
		name    string
		world   World
		journal bool
	}{{"whole", nil, false}, {"world", benchWorld{}, false}, {"world+journal", benchWorld{}, true}} {
		b.Run(side.name, func(b *testing.B) {
			var tap *journal.Tap
			if side.journal {
				tap = j.Tap("bench", journal.Client{ID: 1})
			}
			client := newMemConn()
			echo := &echoBrowser{memConn: newMemConn()}
			echo.response = []byte(`{"id":1,"result":{"result":{"type":"number","value":1,"description":"1"}},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			request := []byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			relay := New(Spec{
				ID: 1, Client: client, Browser: echo, Endpoint: browser.Endpoint{Generation: 1},
				Resilient: true, World: side.world, WorldContext: "W", Journal: tap, Log: zerolog.Nop(),
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { _ = relay.Serve(ctx); close(done) }()
			round := func() {
				client.in <- request
				<-client.out
			}
			round()
			if !strings.Contains(string(client.last), `"value":1`) {
				b.Fatalf("answer %s", client.last)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				round()
			}
			b.StopTimer()
			cancel()
			<-done
		})
	}
}
