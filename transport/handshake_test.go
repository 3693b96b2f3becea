package transport

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// rawUpgrade sends an upgrade of GET / with the given header lines on a
// connection of its own and returns the answer's status and
// Sec-WebSocket-Accept, and the connection (to read frames on).
func rawUpgrade(t *testing.T, addr string, lines ...string) (int, string, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET / HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + strings.Join(lines, "\r\n") + "\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		resp.Body.Close()
	}
	return resp.StatusCode, resp.Header.Get("Sec-Websocket-Accept"), br
}

// Upgrades as Chromium 156 takes and refuses them; the Accept values are
// those Chromium answered for the same keys.
func TestUpgradeTakesWhatChromiumTakes(t *testing.T) {
	hello := []byte("hello")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Upgrade(&websocket.Upgrader{}, w, r)
		if err != nil {
			return
		}
		defer c.Close()
		_ = c.WriteMessage(websocket.TextMessage, hello)
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	taken := []struct {
		name   string
		lines  []string
		accept string
	}{
		{"the RFC's sample key", []string{"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"}, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="},
		{"go-rod's nil", []string{"Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 13"}, "Q67D9eATKx531lK8F7u2rqQNnNI="},
		{"words", []string{"Sec-WebSocket-Key: hello world", "Sec-WebSocket-Version: 13"}, "zWPsFSvpzR/F1pJPWnqYXdj961Q="},
		{"200 bytes", []string{"Sec-WebSocket-Key: " + strings.Repeat("x", 200), "Sec-WebSocket-Version: 13"}, "2/xdrRDawKrkzT3zWJGBWn134JI="},
		{"base64 of 8 bytes", []string{"Sec-WebSocket-Key: AAAAAAAAAAA=", "Sec-WebSocket-Version: 13"}, "U05mGB5X0BQLaRORvE1lIMAKUhY="},
		{"two keys, joined", []string{"Sec-WebSocket-Key: a", "Sec-WebSocket-Key: b", "Sec-WebSocket-Version: 13"}, "S4CYI9IqROP9+reJ9GlH6czDZRQ="},
		{"version 8", []string{"Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 8"}, "Q67D9eATKx531lK8F7u2rqQNnNI="},
	}
	for _, c := range taken {
		code, accept, br := rawUpgrade(t, addr, c.lines...)
		if code != http.StatusSwitchingProtocols || accept != c.accept {
			t.Errorf("%s: %d Accept %q, want 101 with %q", c.name, code, accept, c.accept)
			continue
		}
		// The connection works after the fixed answer: a text frame of 5 bytes.
		frame := make([]byte, 2+len(hello))
		if _, err := io.ReadFull(br, frame[:1]); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := io.ReadFull(br, frame[1:]); err != nil || frame[0] != 0x81 || string(frame[2:]) != string(hello) {
			t.Errorf("%s: frame %q: %v", c.name, frame, err)
		}
	}
	refused := []struct {
		name  string
		lines []string
	}{
		{"no key", []string{"Sec-WebSocket-Version: 13"}},
		{"an empty key", []string{"Sec-WebSocket-Key: ", "Sec-WebSocket-Version: 13"}},
		{"a key of spaces", []string{"Sec-WebSocket-Key:    ", "Sec-WebSocket-Version: 13"}},
		{"no version", []string{"Sec-WebSocket-Key: nil"}},
		{"version 7", []string{"Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 7"}},
		{"version 14", []string{"Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 14"}},
		{"versions 13, 8", []string{"Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 13, 8"}},
	}
	for _, c := range refused {
		if code, _, _ := rawUpgrade(t, addr, c.lines...); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", c.name, code)
		}
	}
}

// The Accept is the RFC's: SHA-1 of the key sent and the GUID, in base64.
func TestAcceptKeyIsTheRFCs(t *testing.T) {
	if got := AcceptKey("dGhlIHNhbXBsZSBub25jZQ=="); got != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" { // RFC 6455, 1.3
		t.Fatalf("AcceptKey of the RFC's sample: %q", got)
	}
}

// What the upgrader refuses itself stays refused: a foreign Origin, with a
// key it would not have taken either.
func TestUpgradeKeepsTheUpgradersChecks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := Upgrade(&websocket.Upgrader{CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "" }}, w, r); err == nil {
			c.Close()
		}
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	if code, _, _ := rawUpgrade(t, addr, "Sec-WebSocket-Key: nil", "Sec-WebSocket-Version: 13", "Origin: http://evil.example"); code != http.StatusForbidden {
		t.Fatalf("a foreign Origin with rod's key: %d, want 403", code)
	}
}
