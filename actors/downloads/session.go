package downloads

import (
	"encoding/json"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
)

// sessionMaxMessage bounds what the browser may send on the actor's own
// connection (target infos carry URLs, data: URLs included).
const sessionMaxMessage = 16 << 20

// The DownloadsActor's own CDP connection to one browser generation
// (cdpsession): it sets the download behaviour there and hears the download
// and target events. Chromium undoes a connection's download behaviour
// when that connection closes, so it stays open while the browser runs.

// sessionNews is what the actor's session (and its world lookups) tell it
// on run.fromSession: a closed set, the types below and worldAnswer, each
// with its case in run.onSession.
type sessionNews interface{ isDownloadsSessionNews() }

// sessionOpened and sessionEnded are the session's own news.
type (
	sessionOpened cdpsession.Opened
	sessionEnded  cdpsession.Ended
)

func (sessionOpened) isDownloadsSessionNews()  {}
func (sessionEnded) isDownloadsSessionNews()   {}
func (sessionMessage) isDownloadsSessionNews() {}
func (worldAnswer) isDownloadsSessionNews()    {}

// sessionMessage is a message of the browser the actor acts on.
type sessionMessage struct {
	gen int
	msg cdpMessage
}

// cdpMessage is what the actor reads of a CDP message.
type cdpMessage struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// heard are the events the actor acts on; the rest is not passed on.
var heard = map[string]bool{
	"Browser.downloadWillBegin": true, "Browser.downloadProgress": true,
	"Target.targetCreated": true, "Target.targetInfoChanged": true, "Target.targetDestroyed": true,
}

// startSession connects to ep's browser and reports to out.
func startSession(ep browser.Endpoint, out chan<- sessionNews) *cdpsession.Session[sessionNews] {
	return cdpsession.Start(ep, out, cdpsession.Spec[sessionNews]{
		MaxMessage: sessionMaxMessage, Queue: 256, Read: readMessage,
		Opened: func(m cdpsession.Opened) sessionNews { return sessionOpened(m) },
		Ended:  func(m cdpsession.Ended) sessionNews { return sessionEnded(m) },
	})
}

// readMessage keeps the answers and the events the actor acts on.
func readMessage(gen int, raw []byte) (sessionNews, bool) {
	var msg cdpMessage
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, false // not CDP; nothing to act on
	}
	if msg.Method != "" && !heard[msg.Method] {
		return nil, false
	}
	return sessionMessage{gen: gen, msg: msg}, true
}
