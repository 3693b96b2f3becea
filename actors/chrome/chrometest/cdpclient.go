package chrometest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// CDPClient is a CDP test client: it reads everything the relay sends into a
// channel, so tests can wait for answers and events and see a close.
type CDPClient struct {
	t      testing.TB
	Conn   *websocket.Conn
	in     chan CDPMessage
	closed chan error
	Seen   []CDPMessage // everything received, in order
}

type CDPMessage struct {
	ID        *int64          `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
	Params    json.RawMessage `json:"params"`
}

// DialCDP connects a CDPClient to a websocket URL; it is closed when the
// test ends.
func DialCDP(t testing.TB, url string) *CDPClient {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := &CDPClient{t: t, Conn: c, in: make(chan CDPMessage, 1024), closed: make(chan error, 1)}
	go func() {
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				cl.closed <- err
				close(cl.in)
				return
			}
			var m CDPMessage
			if err := json.Unmarshal(data, &m); err != nil {
				cl.closed <- fmt.Errorf("relay sent invalid JSON %q: %w", data, err)
				close(cl.in)
				return
			}
			cl.in <- m
		}
	}()
	t.Cleanup(func() { c.Close() })
	return cl
}

func (cl *CDPClient) Send(id int64, method, params, session string) {
	cl.t.Helper()
	msg := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		msg += `,"params":` + params
	}
	if session != "" {
		msg += fmt.Sprintf(`,"sessionId":%q`, session)
	}
	if err := cl.Conn.WriteMessage(websocket.TextMessage, []byte(msg+"}")); err != nil {
		cl.t.Fatalf("send %s: %v", method, err)
	}
}

// Next returns the next message, failing the test on a close or timeout.
func (cl *CDPClient) Next() CDPMessage {
	cl.t.Helper()
	select {
	case m, ok := <-cl.in:
		if !ok {
			cl.t.Fatalf("the relay closed the client: %v", <-cl.closed)
		}
		cl.Seen = append(cl.Seen, m)
		return m
	case <-time.After(15 * time.Second):
		cl.t.Fatal("no message from the relay within 15 s")
		return CDPMessage{}
	}
}

// Answer waits for the answer to id, collecting events before it.
func (cl *CDPClient) Answer(id int64) (CDPMessage, []CDPMessage) {
	cl.t.Helper()
	var events []CDPMessage
	for {
		m := cl.Next()
		if m.ID == nil {
			events = append(events, m)
			continue
		}
		if *m.ID != id {
			cl.t.Fatalf("answer to %d arrived while waiting for %d", *m.ID, id)
		}
		return m, events
	}
}

// AnswerOf sends a request and returns its answer and the events before it.
func (cl *CDPClient) AnswerOf(id int64, method, params string) (CDPMessage, []CDPMessage) {
	cl.t.Helper()
	cl.Send(id, method, params, "")
	return cl.Answer(id)
}

// Call sends a request and returns its successful answer.
func (cl *CDPClient) Call(id int64, method, params, session string) CDPMessage {
	cl.t.Helper()
	cl.Send(id, method, params, session)
	m, _ := cl.Answer(id)
	if m.Error != nil {
		cl.t.Fatalf("%s failed: %s", method, m.Error)
	}
	return m
}

// WaitClosed waits for the relay to close the client and returns how.
func (cl *CDPClient) WaitClosed() error {
	cl.t.Helper()
	for {
		select {
		case _, ok := <-cl.in:
			if !ok {
				return <-cl.closed
			}
		case <-time.After(15 * time.Second):
			cl.t.Fatal("the relay did not close the client")
			return nil
		}
	}
}
