package actortest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// CountingServer is a local HTTP server that counts every connection it
// gets: what a guarded world's pages reached of it, a byte or not.
type CountingServer struct {
	*httptest.Server
	Conns atomic.Int64
}

// StartCounting starts a CountingServer serving h, closed when t ends.
func StartCounting(t testing.TB, h http.Handler) *CountingServer {
	s := &CountingServer{}
	s.Server = httptest.NewUnstartedServer(h)
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.Conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// HostPort is the server's host:port, as a policy names it.
func (s *CountingServer) HostPort() string { return strings.TrimPrefix(s.URL, "http://") }
