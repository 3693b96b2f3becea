package pwtrace

import (
	"bytes"
	"image/color"
	"testing"
	"time"
)

// shotsOf writes frames of one page at the given times (each a colour of
// its own, 200×100 pixels of a 400×200 viewport) and the calls, and
// answers each call's screenshots: phase → the index of the frame.
func shotsOf(t *testing.T, frameTimes []int, calls []Action, opts ...Option) (map[string]map[string]int, loaded) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, opts...)
	fileOf := map[string]int{}
	for i, ft := range frameTimes {
		img := solid(t, 200, 100, color.RGBA{uint8(40 * i), 100, 200, 255})
		if err := w.Frame(Frame{Page: "P", JPEG: img, Time: at(ft), Width: 400, Height: 200}); err != nil {
			t.Fatal(err)
		}
		fileOf[w.frames["P"][i].file] = i
	}
	for _, c := range calls {
		if err := w.Action(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	l := load(t, buf.Bytes())
	for _, p := range viewerProblems(l) {
		t.Error(p)
	}
	shots := map[string]map[string]int{}
	for _, s := range ofType(l.trace, "screenshot") {
		id := s["callId"].(string)
		if shots[id] == nil {
			shots[id] = map[string]int{}
		}
		if _, dup := shots[id][s["phase"].(string)]; dup {
			t.Errorf("call %s has two %s screenshots", id, s["phase"])
		}
		shots[id][s["phase"].(string)] = fileOf[s["file"].(string)]
	}
	return shots, l
}

func command(id string, start, end int) Action {
	a := Action{ID: id, Method: "Input.dispatchKeyEvent", Page: "P", Start: at(start)}
	if end >= 0 {
		a.End = at(end)
	}
	return a
}

func TestScreenshotsAreTheFramesThePageShowed(t *testing.T) {
	frames := []int{1000, 2000, 3000, 4000}
	shots, _ := shotsOf(t, frames, []Action{
		command("early", 100, 200),  // before any frame: no before; after: none by 200+500
		command("a", 1500, 1900),    // before 1000; after: by min(1900+500, b's 2100) → 2000
		command("b", 2100, 2200),    // before 2000; after by 2700 → 2000
		command("c", 2900, 3100),    // before 2000; after by 3600 → 3000
		command("silent", 3800, -1), // never answered: before only
		command("late", 5000, 5100), // after the last frame: the last frame both
		command("same", 4000, 4000), // at a frame: that frame
	})
	want := map[string]map[string]int{
		"call@a":      {"before": 0, "after": 1},
		"call@b":      {"before": 1, "after": 1},
		"call@c":      {"before": 1, "after": 2},
		"call@silent": {"before": 2},
		"call@late":   {"before": 3, "after": 3},
		"call@same":   {"before": 3, "after": 3},
	}
	if _, ok := shots["call@early"]; ok {
		t.Errorf("the call before any frame has screenshots: %v", shots["call@early"])
	}
	for id, phases := range want {
		for phase, frame := range phases {
			if got, ok := shots[id][phase]; !ok || got != frame {
				t.Errorf("%s's %s screenshot: frame %d (%v), want frame %d", id, phase, got, ok, frame)
			}
		}
		if len(shots[id]) != len(phases) {
			t.Errorf("%s's screenshots %v, want %v", id, shots[id], phases)
		}
	}
}

func TestSettleWaitsForTheEffect(t *testing.T) {
	// A click answered at 1010 whose effect the page shows at 1100: the
	// after screenshot is the effect, unless settling is off.
	frames := []int{1000, 1100}
	shots, _ := shotsOf(t, frames, []Action{command("click", 1005, 1010)})
	if shots["call@click"]["after"] != 1 {
		t.Errorf("after: frame %d, want the effect's 1", shots["call@click"]["after"])
	}
	shots, _ = shotsOf(t, frames, []Action{command("click", 1005, 1010)}, WithSettle(0))
	if shots["call@click"]["after"] != 0 {
		t.Errorf("after without settling: frame %d, want 0", shots["call@click"]["after"])
	}
	shots, _ = shotsOf(t, frames, []Action{command("click", 1005, 1010)}, WithSettle(50*time.Millisecond))
	if shots["call@click"]["after"] != 0 {
		t.Errorf("after settling 50 ms: frame %d, want 0", shots["call@click"]["after"])
	}
}

func TestInputShowsWhereItLanded(t *testing.T) {
	click := command("click", 1500, 1600)
	click.Point = &Point{X: 100, Y: 50} // CSS pixels of the 400×200 viewport
	shots, l := shotsOf(t, []int{1000}, []Action{click})
	if got, ok := shots["call@click"]["action"]; !ok || got != 0 {
		t.Errorf("the input's action screenshot: %v %v", got, ok)
	}
	inputs := ofType(l.trace, "input")
	if len(inputs) != 1 {
		t.Fatalf("inputs: %v", inputs)
	}
	// The image is 200×100: the point is drawn on its pixels.
	if p, _ := inputs[0]["point"].(map[string]any); p["x"] != 50.0 || p["y"] != 25.0 {
		t.Errorf("the point on the image: %v, want {50 25}", inputs[0]["point"])
	}
}

func TestFramesGivenOutOfOrder(t *testing.T) {
	// A recorder's sources need not agree on order: the frame at 1000 is
	// the one shown at 1500, whatever came first.
	shots, _ := shotsOf(t, []int{2000, 3000, 1000}, []Action{command("a", 1500, 1600)}, WithSettle(0))
	if got := shots["call@a"]; len(got) != 2 || got["before"] != 2 || got["after"] != 2 {
		t.Errorf("screenshots %v, want the third frame (at 1000) both", got)
	}
}
