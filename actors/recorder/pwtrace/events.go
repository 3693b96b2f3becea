package pwtrace

import "time"

// Frame is one screencast frame of a page, as the browser sent it
// (Page.screencastFrame).
type Frame struct {
	Page string    // the page's id (its CDP target id): its lane in the filmstrip
	JPEG []byte    // the image, written as it is
	Time time.Time // when the page showed it (the frame's metadata.timestamp)
	// Width and Height are the page's viewport in CSS pixels (the frame's
	// metadata.deviceWidth/Height); zero: the JPEG's own size.
	Width, Height int
}

// Point is where an input landed, in CSS pixels of the page's viewport.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Action is one command of a world's client, shown in the actions list.
type Action struct {
	ID     string // unique among the trace's actions
	Client string // who sent it: shown as the "client" parameter
	Method string // the CDP method, e.g. "Page.navigate"
	// Title is what the actions list shows (the method when empty); a
	// {name} in it is shown as the parameter of that name.
	Title  string
	Page   string // the page it acted on, if any: its screenshots come from that page's frames
	Target string // its target, if not a page: shown as the "target" parameter
	// Params are shown in the Call tab as given: only what may be kept
	// (the package's privacy rule).
	Params map[string]string
	Start  time.Time
	End    time.Time // zero: never answered
	Error  string    // the answer's error; empty: it succeeded
	Point  *Point    // where its input landed, if it was input
}

// Mark is a moment (or a span) of the recording that no client's command
// made: a navigation of the page's own, a download, the browser's crash
// and relaunch, a human's takeover. It shows in the actions list beside
// the commands.
type Mark struct {
	Kind   string // what it is, short: "crash", "takeover", "request_human", …
	Title  string // what the actions list shows; {name} as in Action.Title
	Page   string // the page it concerns, if any
	Params map[string]string
	Start  time.Time
	End    time.Time // zero: a moment
}

// Navigation is a page's main frame committing a URL.
type Navigation struct {
	Page string
	URL  string
	Time time.Time
}

// Download is a file a page downloaded.
type Download struct {
	Page     string
	URL      string
	FileName string // the suggested file name
	Start    time.Time
	End      time.Time // zero: not finished
}

// Console is a console message of a page (Runtime.consoleAPICalled).
type Console struct {
	Page string
	Time time.Time
	Type string // CDP's and Playwright's words: "log", "info", "warning", "error", "debug", …
	Text string
	// Where it was logged, if known.
	URL          string
	Line, Column int
}

// PageError is an exception a page did not catch
// (Runtime.exceptionThrown).
type PageError struct {
	Page    string
	Time    time.Time
	Name    string // e.g. "TypeError"
	Message string
	Stack   string
}

// Request is one network request and its response, without bodies or
// header values (a content type is kept).
type Request struct {
	Page   string // the page that made it
	Method string
	URL    string
	// ResourceType is CDP's (Document, Script, XHR, …).
	ResourceType string
	// RequestContentType is the request's Content-Type, if it had a body.
	RequestContentType string
	Protocol           string // "http/1.1", "h2", … (empty: HTTP/1.1)

	Status     int    // 0: no response
	StatusText string // e.g. "OK"
	MIMEType   string // the response's content type
	Failure    string // why it failed (Network.loadingFailed's errorText)

	Start    time.Time // sent
	Response time.Time // its headers came (zero: unknown)
	End      time.Time // its body finished or it failed (zero: unknown)

	RequestBodySize int64 // bytes of its body, -1 unknown
	BodySize        int64 // the response body's bytes as sent (encoded), -1 unknown
	TransferSize    int64 // bytes on the wire, headers too, -1 unknown

	ServerIP   string
	ServerPort int
}
