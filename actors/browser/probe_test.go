package browser

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// probeServer answers the probe's asks on its first connection until it
// drops it; then, by stall, it answers nothing on a new connection (a hung
// browser) or never completes a handshake (a stopped one).
func probeServer(t *testing.T, stall string) string {
	var conns atomic.Int32
	up := websocket.Upgrader{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := conns.Add(1)
		if n > 1 && stall == "handshake" {
			<-r.Context().Done()
			return
		}
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for answered := 0; ; answered++ {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			if n == 1 && answered == 3 {
				return // dropped: the probe must connect again
			}
			if n == 1 {
				_ = c.WriteMessage(websocket.TextMessage, []byte(strings.Replace(string(msg), `"method"`, `"result":{},"x"`, 1)))
			}
		}
	}))
	srv.Listener.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return "ws://" + l.Addr().String() + "/devtools/browser/x"
}

// The probe does not give up when its connection ends: a browser that hangs
// afterwards, whether it answers nothing on a new connection or never
// completes the handshake, is found hung within the timeout after its
// last answer.
func TestHangProbeOutlivesItsConnection(t *testing.T) {
	for _, stall := range []string{"answers", "handshake"} {
		t.Run(stall, func(t *testing.T) {
			url := probeServer(t, stall)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			const timeout = 600 * time.Millisecond
			start := time.Now()
			silent, hung := probeHang(ctx, nil, url, `{"id":%d,"method":"Browser.getVersion"}`, timeout)
			if !hung || silent < timeout {
				t.Fatalf("probe ended hung=%v silent=%s after %s: want hung", hung, silent, time.Since(start))
			}
		})
	}
}
