package actortest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// CDPClient is the CDP test client, over a websocket (DialCDP) or any other
// transport (NewCDPClient), such as the browser pipe. A reader goroutine
// queues everything that arrives, so tests can wait for answers and events
// and see a close; the test goroutine alone reads the queue.
type CDPClient struct {
	t    testing.TB
	Conn *websocket.Conn // the websocket of a DialCDP client; nil over other transports
	Seen []CDPMessage    // everything received by Next and NextWithin, in order
	// Patience is how long Next waits for a message; 0: 15 s.
	Patience time.Duration

	send    func([]byte) error
	in      chan CDPMessage // closed when reading ends
	done    chan struct{}   // closed when reading ends, before in
	readErr error           // why reading ended; set before done is closed
	badJSON bool            // reading ended on a message that is not CDP JSON
}

// CDPMessage is one message received: an answer (ID set) or an event.
type CDPMessage struct {
	ID        *int64          `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
	Params    json.RawMessage `json:"params"`
	Raw       json.RawMessage `json:"-"` // the whole message as received
}

// ErrorCode returns the code and message of an error answer; 0 and "" when
// the message has no error or an error not of the form {code, message}.
func (m CDPMessage) ErrorCode() (int, string) {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if m.Error == nil || json.Unmarshal(m.Error, &e) != nil {
		return 0, ""
	}
	return e.Code, e.Message
}

// NewCDPClient makes a CDPClient over any transport: send writes one message,
// read returns the next one (an error ends the client). Closing the transport
// is the caller's business.
func NewCDPClient(t testing.TB, send func([]byte) error, read func() ([]byte, error)) *CDPClient {
	cl := &CDPClient{t: t, send: send, in: make(chan CDPMessage, 1024), done: make(chan struct{})}
	go func() {
		defer close(cl.in)
		defer close(cl.done)
		for {
			data, err := read()
			if err != nil {
				cl.readErr = err
				return
			}
			var m CDPMessage
			if err := json.Unmarshal(data, &m); err != nil {
				cl.readErr = fmt.Errorf("relay sent invalid JSON %q: %w", data, err)
				cl.badJSON = true
				return
			}
			m.Raw = data
			cl.in <- m
		}
	}()
	return cl
}

// DialCDP connects a CDPClient to a websocket URL; it is closed when the
// test ends.
func DialCDP(t testing.TB, url string) *CDPClient {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := NewCDPClient(t,
		func(msg []byte) error { return c.WriteMessage(websocket.TextMessage, msg) },
		func() ([]byte, error) { _, data, err := c.ReadMessage(); return data, err })
	cl.Conn = c
	t.Cleanup(func() { c.Close() })
	return cl
}

// Send sends a request; params (JSON) and session are left out when empty.
func (cl *CDPClient) Send(id int64, method, params, session string) {
	cl.t.Helper()
	msg := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		msg += `,"params":` + params
	}
	if session != "" {
		msg += fmt.Sprintf(`,"sessionId":%q`, session)
	}
	if err := cl.send([]byte(msg + "}")); err != nil {
		cl.t.Fatalf("send %s: %v", method, err)
	}
}

// Write sends raw as one message, as it is.
func (cl *CDPClient) Write(raw string) {
	cl.t.Helper()
	if err := cl.send([]byte(raw)); err != nil {
		cl.t.Fatalf("send %s: %v", raw, err)
	}
}

// Next returns the next message, failing the test on a close or timeout.
func (cl *CDPClient) Next() CDPMessage {
	cl.t.Helper()
	select {
	case m, ok := <-cl.in:
		if !ok {
			cl.t.Fatalf("the relay closed the client: %v", cl.readErr)
		}
		cl.Seen = append(cl.Seen, m)
		return m
	case <-time.After(cmp.Or(cl.Patience, 15*time.Second)):
		cl.t.Fatalf("no message from the relay within %s", cmp.Or(cl.Patience, 15*time.Second))
		return CDPMessage{}
	}
}

// NextWithin returns the next message, or false when none comes within d or
// the connection is closed. A message that is not CDP JSON fails the test.
func (cl *CDPClient) NextWithin(d time.Duration) (CDPMessage, bool) {
	cl.t.Helper()
	select {
	case m, ok := <-cl.in:
		if !ok {
			if cl.badJSON {
				cl.t.Fatal(cl.readErr)
			}
			return CDPMessage{}, false
		}
		cl.Seen = append(cl.Seen, m)
		return m, true
	case <-time.After(d):
		return CDPMessage{}, false
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

// WaitClosed waits for the relay to close the client and returns how,
// dropping the messages before the close; it fails the test when 15 s pass
// without a message or the close.
func (cl *CDPClient) WaitClosed() error {
	cl.t.Helper()
	for {
		select {
		case _, ok := <-cl.in:
			if !ok {
				return cl.readErr
			}
		case <-time.After(15 * time.Second):
			cl.t.Fatal("the relay did not close the client")
			return nil
		}
	}
}

// WaitClosedWithin waits at most d in all for the connection to close and
// returns how, dropping the messages before the close.
func (cl *CDPClient) WaitClosedWithin(d time.Duration) error {
	cl.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case _, ok := <-cl.in:
			if !ok {
				return cl.readErr
			}
		case <-deadline:
			cl.t.Fatalf("the connection is still open after %v", d)
			return nil
		}
	}
}

// Err returns why the connection ended (for a websocket, the read error), or
// nil while it is still open. It does not wait.
func (cl *CDPClient) Err() error {
	select {
	case <-cl.done:
		return cl.readErr
	default:
		return nil
	}
}
