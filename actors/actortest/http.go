package actortest

import (
	"io"
	"net"
	"net/http"
	"testing"
)

// HTTPDo sends one request, with host as its Host header when not empty,
// and returns the status, body and headers of the answer.
func HTTPDo(t testing.TB, method, rawURL, host string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Header
}

// ClosedPort is a loopback port nothing listens on.
func ClosedPort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
