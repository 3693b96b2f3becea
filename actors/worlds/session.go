package worlds

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/transport"
)

// sessionMaxMessage bounds what the browser may send on the actor's own
// connection: target lists carry URLs (data: URLs included), cookie
// snapshots every cookie of a world.
const sessionMaxMessage = 64 << 20

// The WorldsActor's own CDP connection to one browser generation
// (cdpsession): it makes and disposes the worlds' contexts, reads and
// restores their cookies, lists and closes their targets. Contexts made on
// it outlive it (Chromium keeps a context made without disposeOnDetach
// until it is disposed or the browser exits), so a new session serves the
// worlds of the same browser.

// sessionNews is what the actor's session tells it on run.fromSession: a
// closed set, the types below and no others, each with its case in
// run.onSession. The session's opening is not told: the actor sends its
// commands as soon as it has the session.
type sessionNews interface{ isWorldsSessionNews() }

// sessionEnded is the session's own news of its end.
type sessionEnded cdpsession.Ended

func (sessionAnswer) isWorldsSessionNews() {}
func (sessionEvent) isWorldsSessionNews()  {}
func (sessionEnded) isWorldsSessionNews()  {}

// sessionAnswer is the browser's answer to one of the actor's commands.
type sessionAnswer struct {
	gen    int
	answer answer
}

// answer is the browser's answer to one of the actor's commands.
type answer struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *cdpError       `json:"error"`
	lost   error           // the command never reached a browser, or its answer never came
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// err is the answer's failure, nil when it succeeded.
func (a answer) err() error {
	if a.lost != nil {
		return a.lost
	}
	if a.Error == nil {
		return nil
	}
	return fmt.Errorf("the browser answered %d: %s", a.Error.Code, a.Error.Message)
}

// failed is the answer to a command that never reached a browser.
func failed(err error) answer { return answer{lost: err} }

// startSession connects to ep's browser and reports to out.
func startSession(ep browser.Endpoint, out chan<- sessionNews) *cdpsession.Session[sessionNews] {
	return cdpsession.Start(ep, out, cdpsession.Spec[sessionNews]{
		MaxMessage: sessionMaxMessage, Queue: 1024, Read: readAnswer,
		Ended: func(m cdpsession.Ended) sessionNews { return sessionEnded(m) },
	})
}

// sessionEvent is an event of the browser the actor acts on (eventsRead).
type sessionEvent struct {
	gen       int
	method    string
	sessionID string // the page session it came on; "": the browser's
	params    json.RawMessage
}

// readAnswer keeps the answers and the events of eventsRead.
func readAnswer(gen int, raw []byte) (sessionNews, bool) {
	h, err := transport.ScanHead(raw)
	if err != nil {
		return nil, false
	}
	if !h.HasID {
		if !eventsRead[string(h.Method)] {
			return nil, false
		}
		var ev struct {
			Method    string          `json:"method"`
			SessionID string          `json:"sessionId"`
			Params    json.RawMessage `json:"params"`
		}
		if json.Unmarshal(raw, &ev) != nil {
			return nil, false
		}
		return sessionEvent{gen: gen, method: ev.Method, sessionID: ev.SessionID, params: ev.Params}, true
	}
	var a answer
	if json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return sessionAnswer{gen: gen, answer: a}, true
}
