package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/transport"
)

// probeInterval is how often the hang probe asks: several times within the
// hang timeout, but never more often than every 100 ms or less often than
// every 2 s.
func probeInterval(timeout time.Duration) time.Duration {
	return min(max(timeout/4, 100*time.Millisecond), 2*time.Second)
}

// probeHang watches a running browser over a connection of its own: it
// sends ask (a launch.Protocol.AliveRequest format) every probeInterval, and
// returns how long the browser was silent once nothing at all came back for
// timeout (hung). A connection that cannot be made or that ends is no sign
// of life: the probe connects again, so that it never gives up on a browser
// it still watches (a stopped browser's handshake never completes). It
// returns hung=false only when ctx ends (the browser left the running state:
// an exit is reported apart and ends ctx).
func probeHang(ctx context.Context, reach launch.Reach, wsURL, ask string, timeout time.Duration) (silent time.Duration, hung bool) {
	every := probeInterval(timeout)
	last := time.Now() // the browser's last answer (or the probe's start)
	for id := 1; ; {
		if silent := time.Since(last); silent >= timeout {
			return silent, true
		}
		dialCtx, cancel := context.WithTimeout(ctx, max(timeout-time.Since(last), every))
		conn, err := launch.DialWebSocket(dialCtx, reach, wsURL, 1<<20)
		cancel()
		if err == nil {
			silent, hung = watchAnswers(ctx, conn, ask, timeout, every, &id, &last)
			if hung {
				return silent, true
			}
		}
		select {
		case <-ctx.Done():
			return 0, false
		case <-time.After(every):
		}
	}
}

// watchAnswers asks over conn until the browser has been silent for
// timeout (hung), the connection ends or ctx ends; last is the time of the
// browser's latest answer.
func watchAnswers(ctx context.Context, conn transport.Conn, ask string, timeout, every time.Duration, id *int, last *time.Time) (silent time.Duration, hung bool) {
	answers := make(chan struct{}, 1)
	read := make(chan struct{})
	go func() { // owned: ends when conn is closed below
		defer close(read)
		m := transport.NewMessage()
		defer m.Release()
		for conn.Read(m) == nil {
			select {
			case answers <- struct{}{}:
			default: // one pending is enough
			}
		}
	}()
	defer func() { conn.Close(1000, ""); <-read }()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return 0, false
		case <-read:
			return 0, false
		case <-answers:
			*last = time.Now()
		case now := <-tick.C:
			if silent := now.Sub(*last); silent >= timeout {
				return silent, true
			}
			*id++
			if conn.Write(fmt.Appendf(nil, ask, *id), false) != nil {
				return 0, false
			}
		}
	}
}
