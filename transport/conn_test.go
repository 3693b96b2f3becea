package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gorilla/websocket"
)

// wsPair connects a WSConn client (through DialBrowser) to a WSConn the
// test serves, both with limit.
func wsPair(t *testing.T, limit int64) (client, server *WSConn) {
	t.Helper()
	accepted := make(chan *WSConn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		accepted <- NewWSConn(c, limit)
	}))
	t.Cleanup(srv.Close)
	client, err := DialBrowser(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), limit)
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	t.Cleanup(func() { client.Close(websocket.CloseNormalClosure, ""); server.Close(websocket.CloseNormalClosure, "") })
	return client, server
}

func TestWSConnCarriesMessagesWholeAndStreamed(t *testing.T) {
	client, server := wsPair(t, 1<<20)
	if err := client.Write([]byte(`{"id":1}`), false); err != nil {
		t.Fatal(err)
	}
	m := NewMessage()
	defer m.Release()
	if err := server.Read(m); err != nil || string(m.B) != `{"id":1}` || m.Binary {
		t.Fatalf("read %q binary=%v: %v", m.B, m.Binary, err)
	}
	big := strings.Repeat("x", 200<<10)
	if err := client.WriteStream([]byte(`{"id":2,"r":"`), strings.NewReader(big+`"}`), false); err != nil {
		t.Fatal(err)
	}
	rest, err := server.ReadStream(m, 16)
	if err != nil || rest == nil || len(m.B) != 16 {
		t.Fatalf("stream head %q rest=%v: %v", m.B, rest != nil, err)
	}
	tail, err := io.ReadAll(rest)
	if err != nil || string(m.B)+string(tail) != `{"id":2,"r":"`+big+`"}` {
		t.Fatalf("streamed message came apart (%d bytes): %v", len(m.B)+len(tail), err)
	}
}

func TestWSConnOversizedMessageEndsTheConnectionWith1009(t *testing.T) {
	client, server := wsPair(t, 1024)
	if err := client.Write(bytes.Repeat([]byte("a"), 4096), false); err != nil {
		t.Fatal(err)
	}
	m := NewMessage()
	defer m.Release()
	if err := server.Read(m); err == nil {
		t.Fatal("a message over the limit was read")
	}
	err := client.Read(m)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("the sender saw %v, want close 1009", err)
	}
}

func TestWSConnCloseSaysWhyOnceAndCutsLongReasons(t *testing.T) {
	client, server := wsPair(t, 0)
	server.Close(websocket.CloseServiceRestart, strings.Repeat("r", 300))
	server.Close(websocket.CloseGoingAway, "second close is a no-op")
	m := NewMessage()
	defer m.Release()
	err := client.Read(m)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseServiceRestart || len(ce.Text) != 120 {
		t.Fatalf("close seen by the peer: %v", err)
	}
}

func TestWSConnStreamSourceFailureIsASourceError(t *testing.T) {
	client, _ := wsPair(t, 0)
	err := client.WriteStream([]byte("{"), iotest.ErrReader(io.ErrUnexpectedEOF), false)
	var se *SourceError
	if !errors.As(err, &se) {
		t.Fatalf("a failing source gave %v, want a *SourceError", err)
	}
}

func TestDialBrowserRefusalCarriesTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := DialBrowser(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), 0)
	var de *DialError
	if !errors.As(err, &de) || de.Status != http.StatusForbidden || !strings.Contains(err.Error(), srv.URL[len("http"):]) {
		t.Fatalf("dial refused with 403: %v", err)
	}
}
