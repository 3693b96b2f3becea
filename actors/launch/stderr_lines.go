package launch

import (
	"bufio"
	"io"
	"regexp"
	"sync"
)

const stderrTailLines = 20

// stderrWatcher reads a browser's stderr to its end: it reports the URL of
// its readiness line once, keeps the last lines for error reports, and keeps
// draining afterwards so the browser never blocks on a full pipe.
type stderrWatcher struct {
	announced chan string   // receives the URL of the readiness line once
	done      chan struct{} // closed when stderr reached EOF or was closed

	mu   sync.Mutex // guards tail: written by the reader, read by error reports
	tail []string
}

func watchStderr(r io.Reader, readyLine *regexp.Regexp, onLine func(string)) *stderrWatcher {
	w := &stderrWatcher{announced: make(chan string, 1), done: make(chan struct{})}
	go w.read(r, readyLine, onLine)
	return w
}

func (w *stderrWatcher) read(r io.Reader, readyLine *regexp.Regexp, onLine func(string)) {
	defer close(w.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	announced := false
	for sc.Scan() {
		line := sc.Text()
		w.mu.Lock()
		if len(w.tail) == stderrTailLines {
			copy(w.tail, w.tail[1:])
			w.tail = w.tail[:stderrTailLines-1]
		}
		w.tail = append(w.tail, line)
		w.mu.Unlock()
		if !announced {
			if m := readyLine.FindStringSubmatch(line); m != nil {
				announced = true
				w.announced <- m[1]
			}
		}
		if onLine != nil {
			onLine(line)
		}
	}
}

// lines returns a copy of the last stderr lines.
func (w *stderrWatcher) lines() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.tail...)
}
