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

// probeHang watches a running browser: an asker connects to it on a
// connection of its own and sends ask (a launch.Protocol.AliveRequest
// format) every probeInterval, and probeHang returns how long the browser
// was silent once nothing at all came back for timeout (hung). Only the
// answers' times are measured here: the asker does everything that can
// block on a hung browser (a dial whose handshake never completes, a write
// into a full debugging pipe, a close), and connects again when its
// connection fails or ends. It returns hung=false only when ctx ends (the
// browser left the running state: an exit is reported apart and ends
// ctx).
func probeHang(ctx context.Context, reach launch.Reach, wsURL, ask string, timeout time.Duration) (silent time.Duration, hung bool) {
	every := probeInterval(timeout)
	answered := make(chan struct{}, 1)
	asking := make(chan struct{})
	go func() { // owned: ends with ctx; when hung, once the browser is killed (its I/O then fails)
		defer close(asking)
		askUntil(ctx, reach, wsURL, ask, timeout, answered)
	}()
	last := time.Now() // the browser's last answer (or the probe's start)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			<-asking
			return 0, false
		case <-answered:
			last = time.Now()
		case now := <-tick.C:
			if silent := now.Sub(last); silent >= timeout {
				return silent, true
			}
		}
	}
}

// askUntil connects and asks until ctx ends, telling answered of every
// message the browser sends back. A dial gets the hang timeout: one that
// takes longer is tried again.
func askUntil(ctx context.Context, reach launch.Reach, wsURL, ask string, timeout time.Duration, answered chan<- struct{}) {
	every := probeInterval(timeout)
	for id := 0; ctx.Err() == nil; {
		dialCtx, cancel := context.WithTimeout(ctx, timeout)
		conn, err := launch.DialWebSocket(dialCtx, reach, wsURL, 1<<20)
		cancel()
		if err == nil {
			askOn(ctx, conn, ask, every, &id, answered)
		}
		select {
		case <-ctx.Done():
		case <-time.After(every):
		}
	}
}

// askOn asks over conn every interval until the connection ends or ctx
// does.
func askOn(ctx context.Context, conn transport.Conn, ask string, every time.Duration, id *int, answered chan<- struct{}) {
	read := make(chan struct{})
	go func() { // owned: ends when conn is closed below
		defer close(read)
		m := transport.NewMessage()
		defer m.Release()
		for conn.Read(m) == nil {
			select {
			case answered <- struct{}{}:
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
			return
		case <-read:
			return
		case <-tick.C:
			*id++
			if conn.Write(fmt.Appendf(nil, ask, *id), false) != nil {
				return
			}
		}
	}
}
