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
func startSession(ep browser.Endpoint, out chan<- any) *cdpsession.Session {
	return cdpsession.Start(ep, out, cdpsession.Spec{MaxMessage: sessionMaxMessage, Queue: 1024, Read: readAnswer})
}

// readAnswer keeps the answers; the browser's events are not the actor's
// business (it asks what it needs to know).
func readAnswer(gen int, raw []byte) (any, bool) {
	if h, err := transport.ScanHead(raw); err != nil || !h.HasID {
		return nil, false
	}
	var a answer
	if json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return sessionAnswer{gen: gen, answer: a}, true
}
