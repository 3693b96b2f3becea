package main

import (
	"regexp"
	"strings"
	"sync"
)

// devtoolsLine is Chromium's announcement on stderr; only whole lines
// count (the line can arrive split across reads).
var devtoolsLine = regexp.MustCompile(`^DevTools listening on (ws://\S+)$`)

// parseDevToolsLine returns the browser websocket of an announcement line.
func parseDevToolsLine(line string) (string, bool) {
	m := devtoolsLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// endpointLine is the one stdout line of `cdpvisor serve`.
var endpointLine = regexp.MustCompile(`^(http://(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/?$`)

// parseEndpointLine returns the endpoint announced by `cdpvisor serve`.
func parseEndpointLine(line string) (string, bool) {
	m := endpointLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// lineWriter splits what a child writes into whole lines, hands each to
// onLine and keeps the last few for error messages.
type lineWriter struct {
	mu      sync.Mutex
	partial []byte
	last    []string
	keep    int
	onLine  func(string)
}

func newLineWriter(keep int, onLine func(string)) *lineWriter {
	return &lineWriter{keep: keep, onLine: onLine}
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := indexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimRight(string(w.partial[:i]), "\r")
		w.partial = w.partial[i+1:]
		w.remember(line)
		if w.onLine != nil {
			w.onLine(line)
		}
	}
	if len(w.partial) > 1<<20 { // a runaway line: keep memory bounded
		w.remember(string(w.partial[:200]) + "…")
		w.partial = w.partial[:0]
	}
	return len(p), nil
}

func (w *lineWriter) remember(line string) {
	if w.keep <= 0 {
		return
	}
	w.last = append(w.last, line)
	if len(w.last) > w.keep {
		w.last = w.last[len(w.last)-w.keep:]
	}
}

// tail is the last lines seen, for an error message.
func (w *lineWriter) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.last, "\n")
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
