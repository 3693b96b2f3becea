package pwtrace

import (
	"archive/zip"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// ErrClosed is the answer of a Writer's methods after Close.
var ErrClosed = errors.New("pwtrace: the writer is closed")

// Counts say what a Writer has written.
type Counts struct {
	Frames      int // screencast frames (each a line)
	Images      int // distinct JPEGs stored under resources/
	Actions     int // actions and marks
	Screenshots int // screenshot lines (each points at a stored frame)
	Console     int // console messages and page errors
	Requests    int // network entries
}

// Writer writes one trace zip. Its methods take the recording's events in
// any order; Close writes the events, sorted by time, and the zip's
// directory. A Writer is not safe for use by several goroutines at once.
//
// A method refuses an event it cannot write (an empty page id, a frame
// that is no JPEG, an action's id used twice) with an error and goes on;
// an error of the underlying writer stops it: every later call answers
// that error.
type Writer struct {
	zip    *zip.Writer
	opts   options
	images *images

	trace   []line // trace.trace, but its first line
	network []line // trace.network

	frames  map[string][]frameRef // per page
	calls   []callRef             // every action and mark, for their screenshots
	callIDs map[string]bool
	marks   int
	seq     int
	first   float64 // the earliest event's time; 0 before any

	counts Counts
	err    error // sticky: the underlying writer failed
	closed bool
}

// line is one JSON line and where it sorts: by time, then by rank (so
// that a call's "before" precedes its "input" and "after" at one time),
// then in the order given.
type line struct {
	at   float64
	rank int
	seq  int
	data []byte
}

const (
	rankBefore = iota
	rankInput
	rankEvent
	rankAfter
)

// frameRef is what the screenshots need of a frame.
type frameRef struct {
	at           float64
	file         string
	imageW       int // the JPEG's pixels
	imageH       int
	viewW, viewH int // the viewport's CSS pixels
}

// callRef is what the screenshots need of an action or a mark.
type callRef struct {
	id         string
	page       string
	start, end float64 // end 0: never answered
	point      *Point
}

// NewWriter starts a trace zip on w. Close must be called to finish it;
// it does not close w.
func NewWriter(w io.Writer, opts ...Option) *Writer {
	o := defaults()
	for _, opt := range opts {
		opt(&o)
	}
	z := zip.NewWriter(w)
	return &Writer{
		zip:     z,
		opts:    o,
		images:  newImages(z),
		frames:  map[string][]frameRef{},
		callIDs: map[string]bool{},
	}
}

// Counts says what the Writer has taken so far.
func (w *Writer) Counts() Counts { return w.counts }

// usable answers why the Writer takes no more events, if it does not.
func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	return w.err
}

// add keeps v as a line of trace.trace (or of trace.network) at t.
func (w *Writer) add(network bool, at float64, rank int, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("pwtrace: encode a %T: %w", v, err)
	}
	w.seq++
	l := line{at: at, rank: rank, seq: w.seq, data: data}
	if network {
		w.network = append(w.network, l)
	} else {
		w.trace = append(w.trace, l)
	}
	if w.first == 0 || at < w.first {
		w.first = at
	}
	return nil
}

// Close writes trace.trace (context-options first, then every event by
// time), trace.network and the zip's directory. It answers the first
// error of the underlying writer, if there was one.
func (w *Writer) Close() error {
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	if w.err == nil {
		w.err = w.addScreenshots()
	}
	if w.err == nil {
		w.err = w.writeLines("trace.trace", w.contextOptions(), w.trace)
	}
	if w.err == nil {
		w.err = w.writeLines("trace.network", nil, w.network)
	}
	if err := w.zip.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("pwtrace: finish the zip: %w", err)
	}
	return w.err
}

// contextOptions is the trace's first line: its version, browser and
// start.
func (w *Writer) contextOptions() []byte {
	start := w.first
	if !w.opts.start.IsZero() {
		start = ms(w.opts.start)
	}
	if start == 0 {
		start = ms(time.Now()) // an empty recording: the viewer still opens it
	}
	c := contextOptions{
		Version:       Version,
		Type:          "context-options",
		Origin:        "library",
		BrowserName:   w.opts.browser,
		Platform:      w.opts.platform,
		WallTime:      start,
		MonotonicTime: start,
		Title:         w.opts.title,
		Options:       contextViewing{Viewport: w.opts.viewport},
		SDKLanguage:   "javascript",
	}
	data, _ := json.Marshal(c) // plain fields: it cannot fail
	return data
}

// writeLines writes one deflated entry of JSON lines: head (if any), then
// lines sorted.
func (w *Writer) writeLines(name string, head []byte, lines []line) error {
	slices.SortFunc(lines, func(a, b line) int {
		switch {
		case a.at != b.at:
			return cmp.Compare(a.at, b.at)
		case a.rank != b.rank:
			return a.rank - b.rank
		default:
			return a.seq - b.seq
		}
	})
	f, err := w.zip.Create(name)
	if err != nil {
		return fmt.Errorf("pwtrace: add %s: %w", name, err)
	}
	buf := make([]byte, 0, 64<<10)
	flush := func() error {
		if _, err := f.Write(buf); err != nil {
			return fmt.Errorf("pwtrace: write %s: %w", name, err)
		}
		buf = buf[:0]
		return nil
	}
	if head != nil {
		buf = append(append(buf, head...), '\n')
	}
	for _, l := range lines {
		buf = append(append(buf, l.data...), '\n')
		if len(buf) >= 60<<10 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}
