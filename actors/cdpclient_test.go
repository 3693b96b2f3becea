package actors

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// cdpClient is a test client: it reads everything the relay sends into a
// channel, so tests can wait for answers and events and see a close.
type cdpClient struct {
	t      *testing.T
	c      *websocket.Conn
	in     chan cdpMsg
	closed chan error
	seen   []cdpMsg // everything received, in order
}

type cdpMsg struct {
	ID        *int64          `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
	Params    json.RawMessage `json:"params"`
}

func dialCDP(t *testing.T, inst *Instance) *cdpClient {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(wsURL(inst)+"/devtools/browser", nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := &cdpClient{t: t, c: c, in: make(chan cdpMsg, 1024), closed: make(chan error, 1)}
	go func() {
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				cl.closed <- err
				close(cl.in)
				return
			}
			var m cdpMsg
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

func (cl *cdpClient) send(id int64, method, params, session string) {
	cl.t.Helper()
	msg := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		msg += `,"params":` + params
	}
	if session != "" {
		msg += fmt.Sprintf(`,"sessionId":%q`, session)
	}
	if err := cl.c.WriteMessage(websocket.TextMessage, []byte(msg+"}")); err != nil {
		cl.t.Fatalf("send %s: %v", method, err)
	}
}

// next returns the next message, failing the test on a close or timeout.
func (cl *cdpClient) next() cdpMsg {
	cl.t.Helper()
	select {
	case m, ok := <-cl.in:
		if !ok {
			cl.t.Fatalf("the relay closed the client: %v", <-cl.closed)
		}
		cl.seen = append(cl.seen, m)
		return m
	case <-time.After(15 * time.Second):
		cl.t.Fatal("no message from the relay within 15 s")
		return cdpMsg{}
	}
}

// answer waits for the answer to id, collecting events before it.
func (cl *cdpClient) answer(id int64) (cdpMsg, []cdpMsg) {
	cl.t.Helper()
	var events []cdpMsg
	for {
		m := cl.next()
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

// answerOf sends a request and returns its answer and the events before it.
func (cl *cdpClient) answerOf(id int64, method, params string) (cdpMsg, []cdpMsg) {
	cl.t.Helper()
	cl.send(id, method, params, "")
	return cl.answer(id)
}

// call sends a request and returns its successful answer.
func (cl *cdpClient) call(id int64, method, params, session string) cdpMsg {
	cl.t.Helper()
	cl.send(id, method, params, session)
	m, _ := cl.answer(id)
	if m.Error != nil {
		cl.t.Fatalf("%s failed: %s", method, m.Error)
	}
	return m
}

// waitClosed waits for the relay to close the client and returns how.
func (cl *cdpClient) waitClosed() error {
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
