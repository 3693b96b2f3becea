package proxy_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/transport"
)

// upgradeAs sends the upgrade go-rod sends (Sec-WebSocket-Key: nil) for
// path with the given Host and extra header lines; it returns the answer.
func upgradeAs(t *testing.T, addr, path, host string, lines ...string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: nil\r\nSec-WebSocket-Version: 13\r\n" + strings.Join(append(lines, ""), "\r\n") + "\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// The endpoint takes go-rod's handshake on every socket it relays, with
// the Accept of the key sent; what it refused before it still refuses.
func TestEndpointTakesRodsHandshake(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	addr := strings.TrimPrefix(inst.Proxy.Endpoint(), "http://")
	for _, path := range []string{"/devtools/browser", "/context/rod/devtools/browser"} {
		resp := upgradeAs(t, addr, path, addr)
		if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-Websocket-Accept") != transport.AcceptKey("nil") {
			t.Errorf("%s: %s Accept %q, want 101 with %q", path, resp.Status, resp.Header.Get("Sec-Websocket-Accept"), transport.AcceptKey("nil"))
		}
		if resp := upgradeAs(t, addr, path, addr, "Origin: http://evil.example"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s with a foreign Origin: %s, want 403", path, resp.Status)
		}
		if resp := upgradeAs(t, addr, path, "evil.example"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s with a foreign Host: %s, want 403", path, resp.Status)
		}
	}
}
