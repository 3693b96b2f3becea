package launch

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readyLine is a readiness line as the families announce theirs (the
// families test their own patterns; this tests the watcher).
var readyLine = regexp.MustCompile(`^DevTools listening on (ws://\S+)$`)

// chunkedStderr writes its text in the given pieces, one Write each, the
// way a pipe can hand over a line in parts.
func chunkedStderr(pieces ...string) io.Reader {
	r, w := io.Pipe()
	go func() {
		for _, p := range pieces {
			_, _ = w.Write([]byte(p))
			time.Sleep(time.Millisecond)
		}
		w.Close()
	}()
	return r
}

func TestStderrWatcherFindsSplitDevToolsLine(t *testing.T) {
	const url = "ws://127.0.0.1:41234/devtools/browser/0f9e"
	cases := map[string][]string{
		"whole":              {"noise 1\nDevTools listening on " + url + "\nnoise 2\n"},
		"split in the words": {"noise\nDevTools list", "ening on ws://127.0.0.1:41", "234/devtools/browser/0f9e", "\nafter\n"},
		"one byte at a time": strings.Split("a\nDevTools listening on "+url+"\n", ""),
		"no final newline":   {"x\n", "DevTools listening on " + url},
		"after long noise":   {strings.Repeat("[dbus] error\n", 40), "DevTools listening on " + url + "\n"},
	}
	for name, pieces := range cases {
		t.Run(name, func(t *testing.T) {
			w := watchStderr(chunkedStderr(pieces...), readyLine, nil)
			select {
			case got := <-w.announced:
				if got != url {
					t.Fatalf("got %q, want %q", got, url)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("DevTools line not found")
			}
			<-w.done
		})
	}
}

func TestStderrWatcherIgnoresLookalikes(t *testing.T) {
	w := watchStderr(chunkedStderr("prefix DevTools listening on ws://127.0.0.1:1/x\n", "DevTools listening on ws://a b\n"), readyLine, nil)
	<-w.done
	select {
	case got := <-w.announced:
		t.Fatalf("matched %q; only whole lines count", got)
	default:
	}
}

func TestStderrWatcherKeepsTail(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	w := watchStderr(strings.NewReader(b.String()), readyLine, nil)
	<-w.done
	tail := w.lines()
	if len(tail) != stderrTailLines || tail[0] != "line 30" || tail[len(tail)-1] != "line 49" {
		t.Fatalf("tail = %v", tail)
	}
}

func TestLaunchErrorReadsWell(t *testing.T) {
	e := &Error{Cause: CauseExitedEarly, Path: "/usr/bin/chromium", ExitCode: 3, Stderr: []string{"a", "b"}}
	msg := e.Error()
	for _, want := range []string{"/usr/bin/chromium", "exited with code 3", "a\n  b"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}
