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
// sends ask (a launch.Protocol.AliveRequest format) every probeInterval, and returns how long the
// browser was silent once nothing at all came back for timeout (hung). It
// returns hung=false when the connection ends (the browser exited: its
// exit is reported apart) or ctx ends (the browser left the running state).
func probeHang(ctx context.Context, reach launch.Reach, wsURL, ask string, timeout time.Duration) (silent time.Duration, hung bool) {
	conn, err := launch.DialWebSocket(ctx, reach, wsURL, 1<<20)
	if err != nil {
		return 0, false
	}
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
	last := time.Now()
	tick := time.NewTicker(probeInterval(timeout))
	defer tick.Stop()
	for id := 1; ; id++ {
		select {
		case <-ctx.Done():
			return 0, false
		case <-read:
			return 0, false
		case <-answers:
			last = time.Now()
		case now := <-tick.C:
			if silent := now.Sub(last); silent >= timeout {
				return silent, true
			}
			if conn.Write(fmt.Appendf(nil, ask, id), false) != nil {
				return 0, false
			}
		}
	}
}
