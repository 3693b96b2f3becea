package pwtrace

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestRefusedEventsLeaveTheWriterGoing(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	img := solid(t, 8, 8, red)
	refused := map[string]error{
		"a frame without a page":    w.Frame(Frame{JPEG: img, Time: at(1)}),
		"a frame without a time":    w.Frame(Frame{Page: "P", JPEG: img}),
		"a frame that is no JPEG":   w.Frame(Frame{Page: "P", JPEG: []byte("\x89PNG"), Time: at(1)}),
		"an action without an id":   w.Action(Action{Method: "Page.navigate", Start: at(1)}),
		"an action without a start": w.Action(Action{ID: "1", Method: "Page.navigate"}),
		"a point that is no number": w.Action(Action{ID: "2", Method: "Input.dispatchMouseEvent", Start: at(1), Point: &Point{X: math.NaN()}}),
		"a mark without a kind":     w.Mark(Mark{Start: at(1)}),
		"a console without a time":  w.Console(Console{Text: "x"}),
		"a page error without time": w.PageError(PageError{Message: "x"}),
		"a request without a URL":   w.Request(Request{Start: at(1)}),
	}
	for what, err := range refused {
		if err == nil {
			t.Errorf("%s is taken", what)
		}
	}
	if err := w.Action(Action{ID: "1", Method: "Page.navigate", Start: at(2)}); err != nil {
		t.Fatalf("a good action after refusals: %v", err)
	}
	if err := w.Action(Action{ID: "1", Method: "Page.reload", Start: at(3)}); err == nil {
		t.Error("an id given twice is taken")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	l := load(t, buf.Bytes())
	if b := ofType(l.trace, "before"); len(b) != 1 || b[0]["method"] != "Page.navigate" {
		t.Errorf("befores %v, want the one good action", b)
	}
	if w.Counts() != (Counts{Actions: 1}) {
		t.Errorf("counts %+v", w.Counts())
	}
	if err := w.Frame(Frame{Page: "P", JPEG: img, Time: at(4)}); !errors.Is(err, ErrClosed) {
		t.Errorf("a frame after Close: %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("Close again: %v", err)
	}
}

// failing fails every write after the first n bytes.
type failing struct{ n int }

var errDisk = errors.New("disk full")

func (f *failing) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errDisk
	}
	f.n -= len(p)
	return len(p), nil
}

func TestAWriteErrorStopsTheWriter(t *testing.T) {
	w := NewWriter(&failing{n: 10})
	big := solid(t, 256, 256, green)
	// zip's writer buffers: the error may come with a later frame.
	var err error
	for i := range 50 {
		if err = w.Frame(Frame{Page: "P", JPEG: solid(t, 64, 64+i, blue), Time: at(i + 1)}); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Frame(Frame{Page: "P", JPEG: big, Time: at(100)})
	}
	if !errors.Is(err, errDisk) {
		t.Fatalf("frames on a full disk: %v", err)
	}
	if err := w.Console(Console{Time: at(200), Text: "x"}); !errors.Is(err, errDisk) {
		t.Errorf("an event after the error: %v", err)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Errorf("Close after the error: %v", err)
	}
}

func TestReservedParamsAreRenamed(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	err := w.Action(Action{ID: "1", Method: "DOM.querySelector", Client: "cri", Start: at(1), End: at(2),
		Params: map[string]string{"selector": "#f", "client": "spoof", "nodeId": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	params := ofType(load(t, buf.Bytes()).trace, "before")[0]["params"].(map[string]any)
	want := map[string]any{"selector_": "#f", "client_": "spoof", "client": "cri", "nodeId": "4"}
	if len(params) != len(want) {
		t.Errorf("params %v, want %v", params, want)
	}
	for k, v := range want {
		if params[k] != v {
			t.Errorf("params %v, want %v", params, want)
			break
		}
	}
}

func TestAnEmptyRecordingOpens(t *testing.T) {
	var buf bytes.Buffer
	if err := NewWriter(&buf).Close(); err != nil {
		t.Fatal(err)
	}
	l := load(t, buf.Bytes())
	for _, p := range viewerProblems(l) {
		t.Error(p)
	}
	if len(l.trace) != 1 || len(l.network) != 0 {
		t.Errorf("trace %v network %v", l.trace, l.network)
	}
}
