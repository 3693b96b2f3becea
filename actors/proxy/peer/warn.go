package peer

import (
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// warnPeriod is the least time between two warnings of refusals: another
// user's process retrying in a loop must not flood the owner's log.
const warnPeriod = 10 * time.Second

// warnings logs refusals, one line per warnPeriod at most, each counting
// the refusals it stands for. Accept may be called from several
// goroutines; the two counters are atomic.
type warnings struct {
	log   zerolog.Logger
	next  atomic.Int64 // unix nanoseconds before which refusals are only counted
	quiet atomic.Int64 // refusals not logged since the last line
}

func newWarnings(log zerolog.Logger) *warnings { return &warnings{log: log} }

func (w *warnings) refused(owner, who User, peer netip.AddrPort, err error) {
	now, next := time.Now().UnixNano(), w.next.Load()
	if now < next || !w.next.CompareAndSwap(next, now+int64(warnPeriod)) {
		w.quiet.Add(1)
		return
	}
	ev := w.log.Warn().Str("peer", peer.String()).Str("owner", owner.String())
	if quiet := w.quiet.Swap(0); quiet > 0 {
		ev = ev.Int64("alsoRefused", quiet) // since the last line
	}
	if err != nil {
		ev.Err(err).Msgf("refused a connection to the endpoint: it serves %s only, and the user of %s could not be told", owner, peer)
		return
	}
	if who.SID != "" {
		ev = ev.Str("peerSid", who.SID).Int("peerPid", who.PID)
	} else {
		ev = ev.Int("peerUid", who.UID)
	}
	ev.Msgf("refused a connection to the endpoint from %s: it serves %s only", who, owner)
}
