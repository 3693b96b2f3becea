package relay_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// BenchmarkRelayRoundTripJournal is the world's 200-byte round trip of
// BenchmarkRelayRoundTripWorld through two relays at once, one with its
// world's journal kept (a stage: the journal's tap) and one without,
// interleaved in bursts of 256 round trips so that both see the same
// machine: journal/plain is the ratio of their median bursts (issue 37's
// bound: ≤ 1.05), ns/op the journal's.
func BenchmarkRelayRoundTripJournal(b *testing.B) {
	j := journal.New(journal.Spec{Dir: filepath.Join(b.TempDir(), "journal"), Log: zerolog.Nop()})
	jctx, jstop := context.WithCancel(context.Background())
	jdone := make(chan error, 1)
	go func() { jdone <- j.Serve(jctx) }()
	defer func() { jstop(); <-jdone }()

	request := []byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
	response := []byte(`{"id":1,"result":{"result":{"type":"number","value":1,"description":"1"}},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
	plainRound, stopPlain := relay.RoundTrip(walled(), response)
	defer stopPlain()
	keptRound, stopKept := relay.RoundTrip(walled(j.Tap("bench", journal.Client{ID: 1})), response)
	defer stopKept()
	plain := func() { plainRound(request) }
	kept := func() { keptRound(request) }
	plain()
	kept()

	const burst = 256
	burstOf := func(round func()) time.Duration {
		t0 := time.Now()
		for range burst {
			round()
		}
		return time.Since(t0)
	}
	var plainTimes, keptTimes []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i*burst < b.N; i++ {
		if i%2 == 0 { // which goes first alternates
			plainTimes = append(plainTimes, burstOf(plain))
			keptTimes = append(keptTimes, burstOf(kept))
		} else {
			keptTimes = append(keptTimes, burstOf(kept))
			plainTimes = append(plainTimes, burstOf(plain))
		}
	}
	b.StopTimer()
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	mp, mk := median(plainTimes), median(keptTimes)
	b.ReportMetric(float64(mk)/float64(mp), "journal/plain")
	b.ReportMetric(float64(mk)/burst, "ns/op")
	b.ReportMetric(float64(mp)/burst, "plain-ns/op")
}
