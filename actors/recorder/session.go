package recorder

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// What the recorder's session makes of the browser's messages, off the
// actor's goroutine (a frame's base64 is decoded there).
type (
	answerNews struct {
		gen     int
		id      int64
		session string // an attach's new session
		image   []byte // a capture's JPEG
		err     string
	}
	targetNews struct {
		gen       int
		id, typ   string
		url       string
		context   string
		destroyed bool
	}
	detachedNews struct {
		gen     int
		session string
	}
	frameNews struct {
		gen              int
		session          string
		ack              int
		frame            pwtrace.Frame // its Page is filled in by the actor
		scrollX, scrollY float64       // where the page was scrolled to
	}
	// pageNews is one of a page's events the recorder keeps as it is
	// (a navigation, a console message, a page error), its Page filled
	// in by the actor.
	pageNews struct {
		gen     int
		session string
		kind    string
		v       any // pwtrace.Navigation, Console, PageError, or a download (downloads.Entry)
	}
	networkNews struct {
		gen     int
		session string
		method  string
		ev      networkEvent
	}
)

func (answerNews) isRecorderFeedNews()   {}
func (targetNews) isRecorderFeedNews()   {}
func (detachedNews) isRecorderFeedNews() {}
func (frameNews) isRecorderFeedNews()    {}
func (pageNews) isRecorderFeedNews()     {}
func (networkNews) isRecorderFeedNews()  {}

// maxSessionMessage bounds a message of the browser on the recorder's
// session: a frame of a tall page is a few MB as base64.
const maxSessionMessage = 32 << 20

func sessionSpec() cdpsession.Spec[feedNews] {
	return cdpsession.Spec[feedNews]{
		MaxMessage: maxSessionMessage, Queue: 1024, Read: readSession,
		Opened: func(m cdpsession.Opened) feedNews { return sessionOpened(m) },
		Ended:  func(m cdpsession.Ended) feedNews { return sessionEnded(m) },
	}
}

// message is the shape of what the browser sends on the session.
type message struct {
	ID        int64           `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
	Result    struct {
		SessionID string `json:"sessionId"`
		Data      string `json:"data"` // a capture's base64
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func readSession(gen int, raw []byte) (feedNews, bool) {
	var m message
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	if m.ID != 0 {
		a := answerNews{gen: gen, id: m.ID, session: m.Result.SessionID}
		if m.Result.Data != "" {
			a.image, _ = base64.StdEncoding.DecodeString(m.Result.Data)
		}
		if m.Error != nil {
			a.err = m.Error.Message
		}
		return a, true
	}
	switch {
	case m.Method == "Page.screencastFrame":
		return readFrame(gen, m)
	case strings.HasPrefix(m.Method, "Target."):
		return readTarget(gen, m)
	case strings.HasPrefix(m.Method, "Network."):
		ev, ok := readNetwork(m.Method, m.Params)
		return networkNews{gen: gen, session: m.SessionID, method: m.Method, ev: ev}, ok
	}
	kind, v, ok := readPageEvent(m.Method, m.Params)
	if !ok {
		return nil, false
	}
	return pageNews{gen: gen, session: m.SessionID, kind: kind, v: v}, true
}

func readFrame(gen int, m message) (feedNews, bool) {
	var p struct {
		Data      string `json:"data"`
		SessionID int    `json:"sessionId"`
		Metadata  struct {
			DeviceWidth  float64 `json:"deviceWidth"`
			DeviceHeight float64 `json:"deviceHeight"`
			ScrollX      float64 `json:"scrollOffsetX"`
			ScrollY      float64 `json:"scrollOffsetY"`
			Timestamp    float64 `json:"timestamp"` // seconds since the epoch
		} `json:"metadata"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return nil, false
	}
	jpeg, err := base64.StdEncoding.DecodeString(p.Data)
	if err != nil {
		return nil, false
	}
	f := pwtrace.Frame{JPEG: jpeg, Time: epoch(p.Metadata.Timestamp), Width: int(p.Metadata.DeviceWidth), Height: int(p.Metadata.DeviceHeight)}
	return frameNews{gen: gen, session: m.SessionID, ack: p.SessionID, frame: f, scrollX: p.Metadata.ScrollX, scrollY: p.Metadata.ScrollY}, true
}

func readTarget(gen int, m message) (feedNews, bool) {
	var p struct {
		SessionID  string `json:"sessionId"`
		TargetID   string `json:"targetId"`
		TargetInfo struct {
			TargetID         string `json:"targetId"`
			Type             string `json:"type"`
			URL              string `json:"url"`
			BrowserContextID string `json:"browserContextId"`
		} `json:"targetInfo"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return nil, false
	}
	switch m.Method {
	case "Target.targetCreated", "Target.targetInfoChanged":
		t := p.TargetInfo
		return targetNews{gen: gen, id: t.TargetID, typ: t.Type, url: t.URL, context: t.BrowserContextID}, true
	case "Target.targetDestroyed":
		return targetNews{gen: gen, id: p.TargetID, destroyed: true}, true
	case "Target.detachedFromTarget":
		return detachedNews{gen: gen, session: p.SessionID}, true
	}
	return nil, false
}

// epoch is a time in seconds since the epoch (CDP's TimeSinceEpoch); zero
// or nonsense: now.
func epoch(s float64) time.Time {
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) || s > 1e11 {
		return time.Now()
	}
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(frac*1e9))
}
