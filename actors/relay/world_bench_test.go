package relay_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// BenchmarkRelayRoundTripWorld is BenchmarkRelayRoundTrip's 200-byte round
// trip through the relay of a world's client and of the whole browser's,
// side by side: a page's traffic crosses the wall on the fast path, its
// head read once more for the wall's method and session. world+journal is
// the world's with its journal kept (issue 37: each command recorded at
// its request, written with its answer by the JournalActor, a file of a
// temporary directory), the journal's tap a stage of the relay; with
// -count N the sides run interleaved.
func BenchmarkRelayRoundTripWorld(b *testing.B) {
	j := journal.New(journal.Spec{Dir: filepath.Join(b.TempDir(), "journal"), Log: zerolog.Nop()})
	jctx, jstop := context.WithCancel(context.Background())
	jdone := make(chan error, 1)
	go func() { jdone <- j.Serve(jctx) }()
	defer func() { jstop(); <-jdone }()
	for _, side := range []struct {
		name           string
		world, journal bool
	}{{"whole", false, false}, {"world", true, false}, {"world+journal", true, true}} {
		b.Run(side.name, func(b *testing.B) {
			var stages []relay.Stage
			if side.journal {
				stages = []relay.Stage{j.Tap("bench", journal.Client{ID: 1})}
			}
			response := []byte(`{"id":1,"result":{"result":{"type":"number","value":1,"description":"1"}},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			request := []byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			round, stop := relay.RoundTrip(side.world, stages, response)
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
