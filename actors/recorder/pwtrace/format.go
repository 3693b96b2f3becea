package pwtrace

import (
	"math"
	"time"
)

// Version is the trace format written: playwright-core 1.65.1's own
// (lib/coreBundle.js, "version = 10" beside the Tracing class; its viewer
// refuses newer ones, sw.bundle.js "ee=10").
const Version = 10

// The lines of trace.trace and trace.network, named as Playwright names
// them (packages/trace/src/trace.ts, har.ts). Only what cdpvisor fills is
// declared.

type contextOptions struct {
	Version       int            `json:"version"`
	Type          string         `json:"type"` // "context-options"
	Origin        string         `json:"origin"`
	BrowserName   string         `json:"browserName"`
	Platform      string         `json:"platform"`
	WallTime      float64        `json:"wallTime"`
	MonotonicTime float64        `json:"monotonicTime"`
	Title         string         `json:"title,omitempty"`
	Options       contextViewing `json:"options"`
	SDKLanguage   string         `json:"sdkLanguage"`
}

type contextViewing struct {
	Viewport *size `json:"viewport,omitempty"`
}

type size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

type screencastFrame struct {
	Type      string  `json:"type"` // "screencast-frame"
	PageID    string  `json:"pageId"`
	File      string  `json:"file"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	Timestamp float64 `json:"timestamp"`
}

type beforeAction struct {
	Type      string            `json:"type"` // "before"
	CallID    string            `json:"callId"`
	StartTime float64           `json:"startTime"`
	Title     string            `json:"title,omitempty"`
	Class     string            `json:"class"`
	Method    string            `json:"method"`
	Params    map[string]string `json:"params"` // never null: the viewer reads params.selector
	PageID    string            `json:"pageId,omitempty"`
}

type inputAction struct {
	Type   string `json:"type"` // "input"
	CallID string `json:"callId"`
	Point  *Point `json:"point,omitempty"`
}

type afterAction struct {
	Type    string       `json:"type"` // "after"
	CallID  string       `json:"callId"`
	EndTime float64      `json:"endTime"`
	Error   *errorObject `json:"error,omitempty"`
}

// errorObject is Playwright's SerializedError's error.
type errorObject struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

type screenshotEvent struct {
	Type      string  `json:"type"` // "screenshot"
	CallID    string  `json:"callId"`
	Phase     string  `json:"phase"` // "before", "action", "after"
	PageID    string  `json:"pageId"`
	Timestamp float64 `json:"timestamp"`
	File      string  `json:"file"`
}

type consoleEvent struct {
	Type        string          `json:"type"` // "console"
	Time        float64         `json:"time"`
	PageID      string          `json:"pageId,omitempty"`
	MessageType string          `json:"messageType"`
	Text        string          `json:"text"`
	Location    consoleLocation `json:"location"` // the console tab reads location.url
}

type consoleLocation struct {
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// pageErrorEvent is the "event" Playwright writes for an uncaught
// exception (BrowserContext pageError); the console tab shows it.
type pageErrorEvent struct {
	Type   string          `json:"type"` // "event"
	Time   float64         `json:"time"`
	Class  string          `json:"class"`  // "BrowserContext"
	Method string          `json:"method"` // "pageError"
	Params pageErrorParams `json:"params"`
	PageID string          `json:"pageId,omitempty"`
}

type pageErrorParams struct {
	Error serializedError `json:"error"`
}

type serializedError struct {
	Error errorObject `json:"error"`
}

// ms is t on the trace's one clock: milliseconds since the Unix epoch,
// to the microsecond (which keeps the lines short).
func ms(t time.Time) float64 {
	return math.Round(float64(t.UnixNano())/1e3) / 1e3
}
