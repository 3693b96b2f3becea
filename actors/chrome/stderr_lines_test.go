package chrome

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

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
			w := watchStderr(chunkedStderr(pieces...), devToolsLine, nil)
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
	w := watchStderr(chunkedStderr("prefix DevTools listening on ws://127.0.0.1:1/x\n", "DevTools listening on ws://a b\n"), devToolsLine, nil)
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
	w := watchStderr(strings.NewReader(b.String()), devToolsLine, nil)
	<-w.done
	tail := w.lines()
	if len(tail) != stderrTailLines || tail[0] != "line 30" || tail[len(tail)-1] != "line 49" {
		t.Fatalf("tail = %v", tail)
	}
}

func TestClassifyStderr(t *testing.T) {
	cases := map[string]Cause{
		"[0101/0:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.": CauseRootNoSandbox,
		"The profile appears to be in use by another Chromium process (123) on another computer (x).":                                        CauseProfileInUse,
		"[ERROR:ozone_platform_x11.cc] Missing X server or $DISPLAY":                                                                         CauseNoDisplay,
		"FATAL: Socket path too long: /tmp/very/long":                                                                                        CauseSocketPathLong,
	}
	for line, want := range cases {
		got, ok := classifyStderr([]string{"noise", line})
		if !ok || got != want {
			t.Errorf("%q: got %q %v, want %q", line, got, ok, want)
		}
	}
	if _, ok := classifyStderr([]string{"Fontconfig error"}); ok {
		t.Error("noise classified")
	}
}

func TestLaunchErrorReadsWell(t *testing.T) {
	e := &LaunchError{Cause: CauseExitedEarly, Path: "/usr/bin/chromium", ExitCode: 3, Stderr: []string{"a", "b"}}
	msg := e.Error()
	for _, want := range []string{"/usr/bin/chromium", "exited with code 3", "a\n  b"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}
