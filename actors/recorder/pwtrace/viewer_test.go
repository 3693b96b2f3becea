package pwtrace

import (
	"encoding/json"
	"flag"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

var withViewer = flag.Bool("viewer", false, "open a written trace in Playwright's own trace viewer (node, the pinned playwright-core, Chromium); always when CI is set")

// viewed is what trace_viewer.mjs read off the viewer's page.
type viewed struct {
	URL             string   `json:"url"`
	LoadError       string   `json:"loadError"`
	PageErrors      []string `json:"pageErrors"`
	Actions         []string `json:"actions"`
	FilmstripLanes  int      `json:"filmstripLanes"`
	FilmstripFrames int      `json:"filmstripFrames"`
	FrameImage      *struct {
		Status int  `json:"status"`
		Bytes  int  `json:"bytes"`
		JPEG   bool `json:"jpeg"`
	} `json:"frameImage"`
	Shown []struct {
		Title         string
		Width, Height int
		RGB           []int
		Point         bool
		Error         string
	} `json:"shown"`
	Network []string `json:"network"`
	Console []string `json:"console"`
}

// Playwright's own viewer, served by the pinned playwright-core's
// show-trace and opened in Chromium, opens the synthetic recording and
// shows its actions, its frames, each action's screenshot, its requests
// and its console. Screenshots of the viewer go to $PWTRACE_SHOTS, if
// set.
// near says whether a JPEG's pixel is c, give or take its compression.
func near(rgb []int, c color.RGBA) bool {
	if len(rgb) != 3 {
		return false
	}
	for i, want := range []uint8{c.R, c.G, c.B} {
		if d := rgb[i] - int(want); d < -30 || d > 30 {
			return false
		}
	}
	return true
}

func TestPlaywrightsViewerShowsTheTrace(t *testing.T) {
	if !*withViewer && os.Getenv("CI") == "" {
		t.Skip("opens Playwright's trace viewer in Chromium: run with -viewer (always when CI is set)")
	}
	browser := actortest.Chromium(t)
	dir := t.TempDir()
	data, _ := written(t, WithTitle("world alice"), WithViewport(640, 400))
	file := filepath.Join(dir, "trace.zip")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("PWTRACE_SHOTS")
	if shots == "" {
		shots = dir
	}
	out, err := actortest.NodeScript(t, 2*time.Minute, "trace_viewer.mjs", file, browser, shots)
	if err != nil {
		t.Fatalf("trace_viewer.mjs: %v\n%s", err, out)
	}
	var v viewed
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("trace_viewer.mjs said %q: %v", out, err)
	}
	t.Logf("the viewer showed: %+v", v)
	if v.LoadError != "" || len(v.PageErrors) > 0 {
		t.Fatalf("the viewer did not open the trace: %s %v", v.LoadError, v.PageErrors)
	}

	// Every action and mark, by start, with its title's parameter filled.
	want := []string{
		"Navigate to 127.0.0.1:9/form?x=1", "Navigated to 127.0.0.1:9/form?x=1", "Click", "Download file.txt",
		"Runtime.evaluate", "Page.reload", "The browser crashed", "The browser was relaunched", "Page.navigate",
	}
	if !slices.Equal(v.Actions, want) {
		t.Errorf("the actions list: %q\nwant %q", v.Actions, want)
	}
	// A lane per page, before the crash and after it, whose frames load.
	if v.FilmstripLanes != 2 || v.FilmstripFrames < 2 {
		t.Errorf("the filmstrip: %d lanes, %d frames; want 2 lanes", v.FilmstripLanes, v.FilmstripFrames)
	}
	if v.FrameImage == nil || v.FrameImage.Status != 200 || !v.FrameImage.JPEG {
		t.Errorf("a filmstrip frame's image: %+v", v.FrameImage)
	}
	// Each action's screenshot: its page's frame by then (the "after" one,
	// or for the click the one it landed on, with its point); one without
	// a page of its own, or without an answer, shows an earlier action's.
	colours := []color.RGBA{red, red, red, green, green, green, green, green, blue}
	if len(v.Shown) != len(colours) {
		t.Fatalf("%d actions shown, want %d", len(v.Shown), len(colours))
	}
	for i, s := range v.Shown {
		if s.Error != "" || s.Width != 64 || s.Height != 40 || !near(s.RGB, colours[i]) {
			t.Errorf("%q shows %+v, want the 64×40 frame of %v", s.Title, s, colours[i])
		}
		if s.Point != (s.Title == "Click") {
			t.Errorf("%q: point drawn %v", s.Title, s.Point)
		}
	}
	if len(v.Network) != 2 || !strings.Contains(v.Network[0], "form?x=1") || !strings.Contains(v.Network[1], "api") {
		t.Errorf("the network tab: %q", v.Network)
	}
	if len(v.Console) != 2 || !strings.Contains(v.Console[0], "careful") || !strings.Contains(v.Console[1], "boom") {
		t.Errorf("the console tab: %q", v.Console)
	}
}
