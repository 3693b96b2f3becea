// Package journal is the JournalActor: each world's record of what its
// agents did, as JSON lines in the private state directory, size-capped
// per world. It records methods, targets, navigations' URLs, answers,
// hosts and downloads; never any other parameter of a CDP command (they
// may hold secrets).
package journal

import "time"

// Kind says what an entry records.
type Kind string

const (
	KindCommand    Kind = "command"    // a CDP command of a client and its answer
	KindNavigation Kind = "navigation" // Page.navigate's URL, or a page of the world navigating
	KindHost       Kind = "host"       // a host the world's guard let through or denied, with counts
	KindDownload   Kind = "download"   // a download of the world's pages
	KindTakeover   Kind = "takeover"   // a human took the world's input over, or handed it back
	KindDenied     Kind = "denied"     // a guarded world's client refused a local file, a browser page or a raw channel
	KindDropped    Kind = "dropped"    // entries lost because the journal could not keep up
)

// Client is who did it: the relay's id, and the command a wrap --isolate
// runs in the world when there is one.
type Client struct {
	ID      int64  `json:"id"`
	Command string `json:"command,omitempty"`
}

// Entry is one line of a world's journal. Only these fields are ever
// written: no CDP parameter but a navigation's URL.
type Entry struct {
	Time    time.Time `json:"time"`
	Seq     uint64    `json:"seq"`
	World   string    `json:"world"`
	Client  *Client   `json:"client,omitempty"`
	Kind    Kind      `json:"kind"`
	Method  string    `json:"method,omitempty"`
	Target  string    `json:"target,omitempty"`
	URL     string    `json:"url,omitempty"`
	Answer  string    `json:"answer,omitempty"` // "ok" or "error"
	Error   string    `json:"error,omitempty"`  // the browser's or cdpvisor's error message
	Host    string    `json:"host,omitempty"`   // host:port
	Reached int64     `json:"reached,omitempty"`
	Denied  int64     `json:"denied,omitempty"`
	Dropped int64     `json:"dropped,omitempty"`
	Note    string    `json:"note,omitempty"` // a takeover's, a download's or a denial's word (held, handed back, a file's name, the rule)
}

// Answers of a command.
const (
	AnswerOK    = "ok"
	AnswerError = "error"
)
