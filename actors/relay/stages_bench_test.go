package relay_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/worlds/wall"
)

// BenchmarkRelayRoundTripWorld is BenchmarkRelayRoundTrip's 200-byte round
// trip through the relay of a world's client and of the whole browser's,
// side by side: a page's traffic crosses the world's wall (a stage,
// actors/worlds/wall) on the fast path, its head looked at once more for
// the wall's method and session. guarded is a guarded world's (a network
// policy: its doors to the machine are judged, a page's traffic passes
// them as it does a world's). world+journal is the world's with its
// journal kept (issue 37: each command recorded at its request, written
// with its answer by the JournalActor, a file of a temporary directory),
// the journal's tap a stage of the relay; with -count N the sides run
// interleaved.
func BenchmarkRelayRoundTripWorld(b *testing.B) {
	j := journal.New(journal.Spec{Dir: filepath.Join(b.TempDir(), "journal"), Log: zerolog.Nop()})
	jctx, jstop := context.WithCancel(context.Background())
	jdone := make(chan error, 1)
	go func() { jdone <- j.Serve(jctx) }()
	defer func() { jstop(); <-jdone }()
	for _, side := range []struct {
		name                    string
		world, guarded, journal bool
	}{{"whole", false, false, false}, {"world", true, false, false}, {"guarded", true, true, false}, {"world+journal", true, false, true}} {
		b.Run(side.name, func(b *testing.B) {
			var stages []relay.Stage
			if side.journal {
				stages = []relay.Stage{j.Tap("bench", journal.Client{ID: 1})}
			}
			switch {
			case side.guarded:
				stages = append(stages, wall.New(guardedWorld{}, "W", 1))
			case side.world:
				stages = walled(stages...)
			}
			response := []byte(`{"id":1,"result":{"result":{"type":"number","value":1,"description":"1"}},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			request := []byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			round, stop := relay.RoundTrip(stages, response)
			if answer := round(request); !strings.Contains(string(answer), `"value":1`) {
				b.Fatalf("answer %s", answer)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				round(request)
			}
			b.StopTimer()
			stop()
		})
	}
}

// walled is stages with, nearest the browser, the wall of a world that
// owns the context "W" and nothing else, as a world's relay has it.
func walled(stages ...relay.Stage) []relay.Stage {
	return append(stages, wall.New(benchWorld{}, "W", 1))
}

// benchWorld is a world that owns the context "W" and nothing else, with
// no guard.
type benchWorld struct{}

// guardedWorld is benchWorld with a guard that lets everything through:
// the wall judges its doors.
type guardedWorld struct{ benchWorld }

func (guardedWorld) Walled() bool { return true }

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
func (benchWorld) Walled() bool                                         { return false }
func (benchWorld) DoorURL(string) error                                 { return nil }
func (benchWorld) DoorFile(string) error                                { return nil }
func (benchWorld) DoorDownloads(p string) (string, error)               { return p, nil }
