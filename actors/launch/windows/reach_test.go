package windows_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
	"github.com/cdpvisor/cdpvisor/transport"
)

// windowsReach is the NAT path through the fake Windows side, whose
// loopback is this machine's (mirrored): its helpers reach any local server.
func windowsReach(t *testing.T) (windows.Reach, *actortest.FakeWindows) {
	t.Helper()
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	for _, kv := range win.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return windows.NewReach(wsl.PowerShell{Exe: filepath.Join(win.BinDir, "powershell.exe")}), win
}

func TestWindowsReachHTTP(t *testing.T) {
	reach, _ := windowsReach(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/missing" {
			http.Error(w, "no such target", http.StatusNotFound)
			return
		}
		_, _ = io.WriteString(w, r.Method+" "+r.URL.RequestURI()+" host="+r.Host+" body="+string(body)+" \x00\xff")
	}))
	defer srv.Close()
	client := launch.HTTPClient(reach, nil)
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/json/new?about:blank", strings.NewReader("x=1"))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "PUT /json/new?about:blank host=" + strings.TrimPrefix(srv.URL, "http://") + " body=x=1 \x00\xff"
	if resp.StatusCode != 200 || string(body) != want || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("answer %d %q %q, want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
	}
	if resp, err := client.Get(srv.URL + "/missing"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("an error status: %v %v, want the 404 itself", resp, err)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "http://" + l.Addr().String()
	l.Close()
	if _, err := client.Get(closed + "/json/version"); err == nil || !strings.Contains(err.Error(), "http.ps1") {
		t.Errorf("a closed port: %v, want the script's failure", err)
	}
}

func TestWindowsReachWebSocket(t *testing.T) {
	reach, win := windowsReach(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			kind, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			if string(msg) == "bye" {
				_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), time.Now().Add(time.Second))
				return
			}
			_ = c.WriteMessage(kind, append([]byte("echo "), msg...))
		}
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/devtools/browser/x"
	conn, err := reach.DialWebSocket(context.Background(), url, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("é", 100_000) // over the helper's buffers, not ASCII
	m := transport.NewMessage()
	for _, msg := range []string{`{"id":1}`, big} {
		if err := conn.Write([]byte(msg), false); err != nil {
			t.Fatal(err)
		}
		if err := conn.Read(m); err != nil || string(m.B) != "echo "+msg {
			t.Fatalf("echo of %.20q: %.40q %v", msg, m.B, err)
		}
	}
	if len(win.Scripts(wsl.ScriptRelay)) != 1 {
		t.Errorf("relay.ps1 helpers: %v, want one", win.Scripts(wsl.ScriptRelay))
	}
	// The browser closing the websocket ends the helper: the read fails.
	_ = conn.Write([]byte("bye"), false)
	if err := conn.Read(m); err == nil {
		t.Fatalf("a read after the browser closed: %q", m.B)
	}
	conn.Close(1000, "")
	if h := win.Scripts(wsl.ScriptRelay); len(h) != 0 {
		t.Errorf("relay.ps1 helpers after Close: %v", h)
	}

	// cdpvisor closing it ends the helper too, at once.
	conn, err = reach.DialWebSocket(context.Background(), url, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	conn.Close(1000, "")
	if h := win.Scripts(wsl.ScriptRelay); len(h) != 0 || time.Since(start) > 2*time.Second {
		t.Errorf("relay.ps1 helpers after Close: %v (in %s)", h, time.Since(start))
	}

	// Nothing there: a dial error with the script's reason.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "ws://" + l.Addr().String() + "/devtools/browser/x"
	l.Close()
	_, err = reach.DialWebSocket(context.Background(), closed, 1<<20)
	var de *transport.DialError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "cannot open the websocket") || !strings.Contains(err.Error(), "relay.ps1") {
		t.Errorf("a closed port: %v, want a DialError naming relay.ps1 and its reason", err)
	}
	if h := win.Scripts(wsl.ScriptRelay); len(h) != 0 {
		t.Errorf("relay.ps1 helpers after a failed dial: %v", h)
	}
}
