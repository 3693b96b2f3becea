package pwtrace

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)

func at(msec int) time.Time { return t0.Add(time.Duration(msec) * time.Millisecond) }

// solid is a JPEG of one colour.
func solid(t testing.TB, w, h int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var (
	red   = color.RGBA{220, 40, 40, 255}
	green = color.RGBA{40, 200, 40, 255}
	blue  = color.RGBA{40, 40, 220, 255}
)

// recording gives w a world's synthetic recording, out of time order as
// a recorder's sources may be: two clients on two pages, the second page
// after a crash, an answer that failed and one that never came.
func recording(t *testing.T, w *Writer) {
	t.Helper()
	redJPEG, greenJPEG, blueJPEG := solid(t, 64, 40, red), solid(t, 64, 40, green), solid(t, 64, 40, blue)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Action(Action{ID: "2", Client: "playwright", Method: "Input.dispatchMouseEvent", Title: "Click",
		Page: "P1", Params: map[string]string{"type": "mousePressed"}, Start: at(1500), End: at(1520), Point: &Point{X: 320, Y: 200}}))
	must(w.Frame(Frame{Page: "P1", JPEG: greenJPEG, Time: at(1600), Width: 640, Height: 400}))
	must(w.Frame(Frame{Page: "P1", JPEG: redJPEG, Time: at(100), Width: 640, Height: 400}))
	must(w.Action(Action{ID: "1", Client: "puppeteer", Method: "Page.navigate", Title: "Navigate to {url}",
		Page: "P1", Params: map[string]string{"url": "http://127.0.0.1:9/form?x=1"}, Start: at(200), End: at(900)}))
	must(w.Navigation(Navigation{Page: "P1", URL: "http://127.0.0.1:9/form?x=1", Time: at(800)}))
	must(w.Frame(Frame{Page: "P1", JPEG: redJPEG, Time: at(1000), Width: 640, Height: 400})) // the same bytes again
	must(w.Action(Action{ID: "3", Client: "puppeteer", Method: "Runtime.evaluate", Target: "P1",
		Start: at(2000), End: at(2100), Error: "ReferenceError: x is not defined"}))
	must(w.Console(Console{Page: "P1", Time: at(950), Type: "warning", Text: "careful", URL: "http://127.0.0.1:9/form", Line: 3}))
	must(w.PageError(PageError{Page: "P1", Time: at(1700), Name: "TypeError", Message: "boom", Stack: "at form:1"}))
	must(w.Download(Download{Page: "P1", URL: "http://127.0.0.1:9/file.txt", FileName: "file.txt", Start: at(1800), End: at(1900)}))
	must(w.Action(Action{ID: "4", Client: "puppeteer", Method: "Page.reload", Page: "P1", Start: at(2500)})) // the crash: no answer
	must(w.Mark(Mark{Kind: "crash", Title: "The browser crashed", Start: at(2600)}))
	must(w.Mark(Mark{Kind: "relaunch", Title: "The browser was relaunched", Start: at(3000), End: at(3400)}))
	must(w.Frame(Frame{Page: "P2", JPEG: blueJPEG, Time: at(3500)})) // no viewport given: the JPEG's size
	must(w.Action(Action{ID: "5", Client: "playwright", Method: "Page.navigate", Page: "P2", Start: at(3600), End: at(3700)}))
	must(w.Request(Request{Page: "P1", Method: "GET", URL: "http://127.0.0.1:9/form?x=1&y=a%20b", ResourceType: "Document",
		Status: 200, StatusText: "OK", MIMEType: "text/html; charset=utf-8", Start: at(210), Response: at(260), End: at(280),
		RequestBodySize: 0, BodySize: 120, TransferSize: 300}))
	must(w.Request(Request{Page: "P1", Method: "POST", URL: "http://127.0.0.1:9/api", RequestContentType: "application/json",
		Failure: "net::ERR_CONNECTION_REFUSED", Start: at(1510), End: at(1515), RequestBodySize: 12, BodySize: -1, TransferSize: -1}))
}

func written(t *testing.T, opts ...Option) ([]byte, Counts) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts...)
	recording(t, w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.Counts()
}

func TestTraceIsWhatTheViewerReads(t *testing.T) {
	data, counts := written(t, WithTitle("world alice"), WithViewport(640, 400))
	l := load(t, data)
	for _, p := range viewerProblems(l) {
		t.Error(p)
	}

	// The layout: the two line files, and each distinct JPEG once under
	// resources/, named by its SHA-1 and stored as it is.
	var images int
	for name, f := range l.files {
		switch {
		case name == "trace.trace" || name == "trace.network":
			if f.Method != zip.Deflate {
				t.Errorf("%s is not deflated", name)
			}
		case strings.HasPrefix(name, "resources/"):
			images++
			b := l.read(t, name)
			if sum := sha1.Sum(b); "resources/"+hex.EncodeToString(sum[:]) != name {
				t.Errorf("%s is not named by its SHA-1", name)
			}
			if f.Method != zip.Store {
				t.Errorf("%s is deflated: a JPEG is stored", name)
			}
			if _, err := jpeg.DecodeConfig(bytes.NewReader(b)); err != nil {
				t.Errorf("%s is no JPEG: %v", name, err)
			}
		default:
			t.Errorf("an entry the viewer does not read: %s", name)
		}
	}
	if images != 3 || counts.Images != 3 || counts.Frames != 4 {
		t.Errorf("%d images in the zip, counts %+v: want 3 images of 4 frames (one sent twice)", images, counts)
	}

	opts := l.trace[0]
	if opts["title"] != "world alice" || opts["browserName"] != "chromium" || opts["origin"] != "library" {
		t.Errorf("context-options: %v", opts)
	}
	if opts["wallTime"] != ms(at(100)) || opts["monotonicTime"] != ms(at(100)) {
		t.Errorf("the trace starts at %v/%v, want the earliest event's %v", opts["wallTime"], opts["monotonicTime"], ms(at(100)))
	}

	// Every action and mark has its before, every answered one its after,
	// on the one clock, the failed one its error.
	befores, afters := byCall(ofType(l.trace, "before")), byCall(ofType(l.trace, "after"))
	if len(befores) != 9 || counts.Actions != 9 {
		t.Fatalf("%d befores (counts %d), want 5 actions and 4 marks", len(befores), counts.Actions)
	}
	if _, ok := afters["call@4"]; ok || len(afters) != 8 {
		t.Errorf("afters %v: want every call but the unanswered call@4", keys(afters))
	}
	nav := befores["call@1"]
	if nav["startTime"] != ms(at(200)) || afters["call@1"]["endTime"] != ms(at(900)) || nav["class"] != "CDP" || nav["method"] != "Page.navigate" || nav["pageId"] != "P1" {
		t.Errorf("Page.navigate: %v %v", nav, afters["call@1"])
	}
	if p := nav["params"].(map[string]any); p["client"] != "puppeteer" || p["url"] != "http://127.0.0.1:9/form?x=1" {
		t.Errorf("Page.navigate's params: %v", p)
	}
	if p := befores["call@3"]["params"].(map[string]any); p["target"] != "P1" {
		t.Errorf("Runtime.evaluate's params: %v", p)
	}
	if e, _ := afters["call@3"]["error"].(map[string]any); e["message"] != "ReferenceError: x is not defined" {
		t.Errorf("the failed command's after: %v", afters["call@3"])
	}
	marks := map[string]map[string]any{}
	for _, b := range befores {
		if b["class"] == "cdpvisor" {
			marks[b["method"].(string)] = b
		}
	}
	if m := marks["navigation"]; m == nil || m["title"] != "Navigated to {url}" || m["params"].(map[string]any)["url"] != "http://127.0.0.1:9/form?x=1" {
		t.Errorf("the navigation mark: %v", m)
	}
	if m := marks["download"]; m == nil || m["params"].(map[string]any)["file"] != "file.txt" {
		t.Errorf("the download mark: %v", m)
	}
	if m := marks["relaunch"]; m == nil || afters[m["callId"].(string)]["endTime"] != ms(at(3400)) {
		t.Errorf("the relaunch mark lasts to 3400: %v", m)
	}
	if m := marks["crash"]; m == nil || afters[m["callId"].(string)]["endTime"] != ms(at(2600)) {
		t.Errorf("the crash mark is a moment: %v", m)
	}

	console, events := ofType(l.trace, "console"), ofType(l.trace, "event")
	if len(console) != 1 || console[0]["messageType"] != "warning" || console[0]["text"] != "careful" || console[0]["pageId"] != "P1" {
		t.Errorf("console: %v", console)
	}
	if len(events) != 1 || events[0]["method"] != "pageError" || events[0]["pageId"] != "P1" {
		t.Errorf("page errors: %v", events)
	}
	if len(l.network) != 2 || counts.Requests != 2 {
		t.Errorf("%d network lines, want 2", len(l.network))
	}
	frames := ofType(l.trace, "screencast-frame")
	if len(frames) != 4 || frames[3]["pageId"] != "P2" || frames[3]["width"] != 64.0 || frames[0]["width"] != 640.0 {
		t.Errorf("frames: %v", frames)
	}
}

// A line's time never goes back, but where a call's before and after
// share one.
func TestLinesAreInTimeOrder(t *testing.T) {
	data, _ := written(t)
	l := load(t, data)
	last := 0.0
	for i, e := range l.trace[1:] {
		var tm float64
		for _, k := range []string{"startTime", "endTime", "timestamp", "time"} {
			if v, ok := e[k].(float64); ok {
				tm = v
			}
		}
		if e["type"] == "input" {
			continue // at its call's start, which it follows
		}
		if tm < last {
			t.Errorf("line %d (%v) at %v after %v", i+1, e["type"], tm, last)
		}
		last = tm
	}
}

func TestTheSameEventsMakeTheSameZip(t *testing.T) {
	a, _ := written(t)
	b, _ := written(t)
	if !bytes.Equal(a, b) {
		t.Error("two zips of the same events differ")
	}
}

func byCall(lines []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, l := range lines {
		out[l["callId"].(string)] = l
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
