package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// replaySecret is what the agents type: it must appear nowhere in the
// trace.
const replaySecret = "hunter2-secret"

// Issue 49's "done means": a world recorded while a Puppeteer agent and a
// Playwright agent (two clients, one world) navigate local pages, type into
// a form, click, download a file, and the browser is killed once and
// relaunched; its trace is a zip that Playwright's own trace viewer (the
// pinned playwright-core's show-trace, opened in Chromium) shows: the
// agents' actions, frames before and after the kill, the site's requests.
// $RECORDING_SHOTS, if set, is where the trace (replay.zip) and the
// viewer's screenshots go (trace-viewer-shown.png is the one of
// docs/recording-trace-viewer.png).
func TestRecordedWorldReplaysInPlaywrightsViewer(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	site := replaySite(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", chromium, "--state-dir", stateDir, "--download-dir", filepath.Join(t.TempDir(), "dl"))

	// `world open replay --record`: the world's own endpoint on stdout.
	stdout, stderr, code := runCLI(t, nil, "world", "open", "replay", "--record", "--state-dir", stateDir)
	if code != 0 {
		t.Fatalf("world open replay --record: exit %d: %s", code, stderr)
	}
	worldEndpoint := strings.TrimSpace(stdout)
	var ws worldapi.Status
	getJSON(t, s.endpoint+worldapi.Path+"/replay", &ws)
	if !ws.Recorded || ws.Endpoint != worldEndpoint {
		t.Fatalf("world replay: %+v, want recorded, at %s", ws, worldEndpoint)
	}

	// The agents, on the world's own port; the browser killed once.
	client := actortest.StartLineScript(t, 2*time.Minute, "replay_agents.mjs", worldEndpoint, site.URL, replaySecret)
	var killed int
	var killedAt time.Time
	var final struct {
		OK            bool
		Before, After []string
	}
	for text, ok := client.Next(); ok; text, ok = client.Next() {
		var line struct{ Ready string }
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("unexpected output %q", text)
		}
		if line.Ready == "" {
			if err := json.Unmarshal([]byte(text), &final); err != nil || !final.OK {
				t.Fatalf("final line %q", text)
			}
			break
		}
		if line.Ready != "kill" || killed != 0 {
			t.Fatalf("unexpected output %q", text)
		}
		browsers := s.browsers()
		if len(browsers) != 1 {
			t.Fatalf("browsers %v, want one", browsers)
		}
		killed, killedAt = browsers[0], time.Now()
		if err := syscall.Kill(killed, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitGone(t, killed)
		client.Go()
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	if killed == 0 || !final.OK {
		t.Fatalf("the agents ended before the kill (final %+v)", final)
	}
	t.Logf("the agents saw %q before the kill, %q after", final.Before, final.After)
	if browsers := s.browsers(); len(browsers) != 1 || browsers[0] == killed {
		t.Fatalf("browsers %v after the run, want a relaunched one (killed %d)", browsers, killed)
	}

	// `world trace replay --output FILE`: the trace, as a zip.
	file := filepath.Join(t.TempDir(), "replay.zip")
	stdout, stderr, code = runCLI(t, nil, "world", "trace", "replay", "--output", file, "--state-dir", stateDir)
	if code != 0 {
		t.Fatalf("world trace replay: exit %d: %s", code, stderr)
	}
	t.Logf("world trace replay: %s", strings.TrimSpace(stdout))
	info, err := os.Stat(file)
	if err != nil {
		t.Fatalf("world trace replay --output %s: %v", file, err)
	}
	n := info.Size()
	if dir := os.Getenv("RECORDING_SHOTS"); dir != "" {
		if b, err := os.ReadFile(file); err == nil {
			_ = os.WriteFile(filepath.Join(dir, "replay.zip"), b, 0o600)
		}
	}
	tr := readReplayTrace(t, file)
	t.Logf("trace: %d bytes, %d frames (%d JPEGs), %d actions, %d marks, %d requests",
		n, len(tr.frames), tr.jpegs, len(tr.actions), len(tr.marks), len(tr.requests))
	tr.check(t, site.URL, killedAt)

	// Frames received, all written.
	var st struct {
		FramesReceived int64 `json:"frames_received"`
		FramesWritten  int64 `json:"frames_written"`
		NotesDropped   int64 `json:"notes_dropped"`
		DroppedBytes   int64 `json:"dropped_bytes"`
	}
	getJSON(t, s.endpoint+worldapi.Path+"/replay/recording", &st)
	t.Logf("recording status: %+v", st)
	if st.FramesReceived == 0 || st.FramesReceived != st.FramesWritten {
		t.Errorf("frames received %d, written %d: want all written", st.FramesReceived, st.FramesWritten)
	}

	// Playwright's own viewer.
	shots := os.Getenv("RECORDING_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	t.Setenv("TRACE_VIEWER_SHOW", `^(Page\.navigate|Input\.dispatchMouseEvent mousePressed|Navigated to|[Tt]he browser)`)
	// The viewer as it shows the last click: Playwright's, after the relaunch.
	t.Setenv("TRACE_VIEWER_SHOT", `^Input\.dispatchMouseEvent mousePressed`)
	v := viewTrace(t, file, chromium, shots)
	checkViewed(t, v, site.URL)
}

// replaySite is the agents' local site: a form whose submit shows what it
// got (its length, never its text) and fetches /api/submitted, a link to
// /next, a download, and a box changing colour all the time (the frames).
func replaySite(t *testing.T) *httptest.Server {
	t.Helper()
	page := func(w http.ResponseWriter, title, agent, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>%s</title>
<style>body{margin:0;font:22px sans-serif;background:#fff}#box{height:140px}</style>
<div id=box></div><h1>%s: %s</h1>%s
<script>let n=0;setInterval(()=>{box.style.background='hsl('+(n++*37%%360)+',80%%,50%%)';box.textContent=n},150)</script>`,
			title, html.EscapeString(agent), title, body)
	}
	form := func(w http.ResponseWriter, r *http.Request) {
		agent := r.URL.Query().Get("agent")
		page(w, strings.TrimPrefix(r.URL.Path, "/"), agent, fmt.Sprintf(`
<form id=f><input id=secret type=password autocomplete=off> <button id=go type=submit>Send</button></form>
<p id=out>waiting</p><p><a id=next href="/next?agent=%[1]s">next</a> <a id=file href="/file.txt">file</a></p>
<script>f.onsubmit=(e)=>{e.preventDefault();const l=secret.value.length;out.textContent='submitted '+l+' chars';
document.body.style.background='#cfc';fetch('/api/submitted?len='+l)}</script>`, html.EscapeString(agent)))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/form", form)
	mux.HandleFunc("/after", form)
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		page(w, "next", r.URL.Query().Get("agent"), `<p id=out>next page</p>`)
	})
	mux.HandleFunc("/api/submitted", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"len":%q}`, r.URL.Query().Get("len"))
	})
	mux.HandleFunc("/file.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Disposition", `attachment; filename="report.txt"`)
		fmt.Fprint(w, "a report the agent downloads\n")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// replayTrace is what the test reads of a trace zip.
type replayTrace struct {
	jpegs    int
	frames   []traceLine // screencast-frame
	actions  []traceLine // before, class CDP
	marks    []traceLine // before, class cdpvisor
	requests []string    // trace.network's URLs
	text     string      // every entry but the JPEGs
	all      []byte      // every entry's bytes, uncompressed
}

// traceLine is a line of trace.trace, as much as the test reads.
type traceLine struct {
	Type      string            `json:"type"`
	CallID    string            `json:"callId"`
	Class     string            `json:"class"`
	Method    string            `json:"method"`
	Title     string            `json:"title"`
	Params    map[string]string `json:"params"`
	PageID    string            `json:"pageId"`
	StartTime float64           `json:"startTime"`
	Timestamp float64           `json:"timestamp"`
	File      string            `json:"file"`
}

func readReplayTrace(t *testing.T, file string) *replayTrace {
	t.Helper()
	z, err := zip.OpenReader(file)
	if err != nil {
		t.Fatalf("the trace is not a zip: %v", err)
	}
	defer z.Close()
	tr := &replayTrace{}
	var text strings.Builder
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		tr.all = append(tr.all, b...)
		if strings.HasPrefix(f.Name, "resources/") {
			if bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
				tr.jpegs++
			}
			continue
		}
		text.Write(b)
		switch f.Name {
		case "trace.trace":
			for _, l := range bytes.Split(b, []byte("\n")) {
				var line traceLine
				if len(l) == 0 || json.Unmarshal(l, &line) != nil {
					continue
				}
				switch {
				case line.Type == "screencast-frame":
					tr.frames = append(tr.frames, line)
				case line.Type == "before" && line.Class == "CDP":
					tr.actions = append(tr.actions, line)
				case line.Type == "before":
					tr.marks = append(tr.marks, line)
				}
			}
		case "trace.network":
			for _, l := range bytes.Split(b, []byte("\n")) {
				var line struct {
					Snapshot struct {
						Request struct{ URL string }
					}
				}
				if len(l) > 0 && json.Unmarshal(l, &line) == nil && line.Snapshot.Request.URL != "" {
					tr.requests = append(tr.requests, line.Snapshot.Request.URL)
				}
			}
		}
	}
	tr.text = text.String()
	return tr
}

// check asks of the trace what the issue does.
func (tr *replayTrace) check(t *testing.T, site string, killedAt time.Time) {
	t.Helper()
	// The crash and the relaunch, marked in order, about when the test
	// killed the browser.
	var crash, relaunch float64
	for _, m := range tr.marks {
		switch m.Method {
		case "crash":
			if crash == 0 {
				crash = m.StartTime
			}
		case "relaunch":
			if relaunch == 0 {
				relaunch = m.StartTime
			}
		}
	}
	if crash == 0 || relaunch < crash {
		t.Fatalf("marks crash at %v, relaunch at %v: want both, in order (marks %v)", crash, relaunch, methodsOf(tr.marks))
	}
	if at := float64(killedAt.UnixMicro()) / 1e3; crash < at-1000 || crash > at+10000 {
		t.Errorf("the crash mark is at %.0f, the kill at %.0f", crash, at)
	}

	// Frames before the crash and after the relaunch, each of a page of
	// the world (never of no page).
	var before, after int
	pagesBefore, pagesAfter := map[string]bool{}, map[string]bool{}
	for _, f := range tr.frames {
		if f.PageID == "" || f.File == "" {
			t.Errorf("a frame without a page or a file: %+v", f)
		}
		switch {
		case f.Timestamp < crash:
			before++
			pagesBefore[f.PageID] = true
		case f.Timestamp > relaunch:
			after++
			pagesAfter[f.PageID] = true
		}
	}
	t.Logf("frames: %d before the crash (%d pages), %d after the relaunch (%d pages)", before, len(pagesBefore), after, len(pagesAfter))
	// After: both agents' pages and the page of the context Playwright made.
	if before < 2 || after < 3 || len(pagesBefore) < 2 || len(pagesAfter) < 3 {
		t.Errorf("frames: %d before the crash of %d pages, %d after the relaunch of %d pages: want some of both agents' pages each side, and of the context made after",
			before, len(pagesBefore), after, len(pagesAfter))
	}
	if tr.jpegs == 0 {
		t.Error("no JPEG in the trace's resources")
	}

	// The actions: by client, what each did, before and after the kill.
	type did struct{ navigate, input, evaluate, after, onPage int }
	byClient := map[string]*did{}
	inputs := map[string]bool{}
	for _, a := range tr.actions {
		c := a.Params["client"]
		if c == "" {
			t.Errorf("action %s %s names no client", a.CallID, a.Method)
			continue
		}
		d := byClient[c]
		if d == nil {
			d = &did{}
			byClient[c] = d
		}
		switch {
		case a.Method == "Page.navigate":
			d.navigate++
		case strings.HasPrefix(a.Method, "Input."):
			d.input++
			inputs[a.Method] = true
		case a.Method == "Runtime.evaluate" || a.Method == "Runtime.callFunctionOn":
			d.evaluate++
		}
		if a.StartTime > relaunch {
			d.after++
		}
		if a.PageID != "" && (pagesBefore[a.PageID] || pagesAfter[a.PageID]) {
			d.onPage++
		}
	}
	clients := make([]string, 0, len(byClient))
	for c, d := range byClient {
		clients = append(clients, c)
		t.Logf("%s: %+v", c, *d)
	}
	sort.Strings(clients)
	if len(byClient) != 2 {
		t.Errorf("actions of clients %q, want the two agents'", clients)
	}
	for c, d := range byClient {
		if d.navigate < 2 || d.input == 0 || d.evaluate == 0 || d.after == 0 || d.onPage == 0 {
			t.Errorf("%s: %+v: want navigations, input, evaluations, actions after the relaunch, actions on a filmed page", c, *d)
		}
	}
	for _, m := range []string{"Input.dispatchMouseEvent", "Input.dispatchKeyEvent", "Input.insertText"} {
		if !inputs[m] {
			t.Errorf("no %s action (inputs %v)", m, inputs)
		}
	}
	for _, want := range []string{"/form?agent=puppeteer", "/form?agent=playwright", "/after?agent=puppeteer", "/after?agent=playwright", "/after?agent=playwright-made"} {
		if !slices.ContainsFunc(tr.actions, func(a traceLine) bool { return a.Method == "Page.navigate" && a.Params["url"] == site+want }) {
			t.Errorf("no Page.navigate action to %s", site+want)
		}
	}
	if !slices.ContainsFunc(tr.marks, func(m traceLine) bool {
		return m.Method == "download" && strings.HasPrefix(m.Params["file"], "report.txt")
	}) {
		t.Errorf("no download mark of report.txt (marks %v)", methodsOf(tr.marks))
	}

	// The site's requests.
	for _, want := range []string{"/form?agent=puppeteer", "/form?agent=playwright", "/next?agent=puppeteer", "/next?agent=playwright",
		"/after?agent=puppeteer", "/after?agent=playwright", "/after?agent=playwright-made", "/api/submitted?len=14"} {
		if !slices.Contains(tr.requests, site+want) {
			t.Errorf("trace.network lacks %s", site+want)
		}
	}

	// Nothing typed.
	if bytes.Contains(tr.all, []byte(replaySecret)) {
		t.Errorf("the typed %q is in the trace", replaySecret)
	}
}

// methodsOf lists the lines' methods.
func methodsOf(ls []traceLine) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Method
	}
	return out
}

// traceViewed is what trace_viewer.mjs read off Playwright's viewer.
type traceViewed struct {
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
		Index         int
		Width, Height int
		Error         string
		Point         bool
	} `json:"shown"`
	Network []string `json:"network"`
}

// viewTrace opens file in Playwright's own viewer (trace_viewer.mjs).
func viewTrace(t *testing.T, file, chromium, shots string) traceViewed {
	t.Helper()
	out, err := actortest.NodeScript(t, 3*time.Minute, "trace_viewer.mjs", file, chromium, shots)
	if err != nil {
		t.Fatalf("trace_viewer.mjs: %v\n%s", err, out)
	}
	var v traceViewed
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("trace_viewer.mjs said %q: %v", out, err)
	}
	if v.LoadError != "" || len(v.PageErrors) > 0 {
		t.Fatalf("the viewer did not open the trace: %s %v", v.LoadError, v.PageErrors)
	}
	return v
}

// checkViewed asks of the viewer what the issue does: the actions list
// has the agents' navigations and input, the crash and the relaunch; an
// action's screenshot is shown before the crash and after the relaunch;
// the filmstrip's frames load; the network tab lists the site's requests.
func checkViewed(t *testing.T, v traceViewed, site string) {
	t.Helper()
	host := strings.TrimPrefix(site, "http://")
	t.Logf("the viewer: %d actions, %d filmstrip lanes, %d frames, %d shown, %d requests",
		len(v.Actions), v.FilmstripLanes, v.FilmstripFrames, len(v.Shown), len(v.Network))
	crash, relaunch := -1, -1
	for i, a := range v.Actions {
		switch {
		case strings.HasPrefix(strings.ToLower(a), "the browser exited") && crash < 0:
			crash = i
		case strings.HasPrefix(strings.ToLower(a), "the browser was relaunched") && relaunch < 0:
			relaunch = i
		}
	}
	if crash < 0 || relaunch < crash {
		t.Errorf("the actions list: crash at %d, relaunch at %d", crash, relaunch)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`^Page\.navigate ` + regexp.QuoteMeta(host+"/form?agent=puppeteer")),
		regexp.MustCompile(`^Page\.navigate ` + regexp.QuoteMeta(host+"/form?agent=playwright")),
		regexp.MustCompile(`^Page\.navigate ` + regexp.QuoteMeta(host+"/after?agent=puppeteer")),
		regexp.MustCompile(`^Page\.navigate ` + regexp.QuoteMeta(host+"/after?agent=playwright")),
		regexp.MustCompile(`^Navigated to ` + regexp.QuoteMeta(host+"/next?agent=")),
		regexp.MustCompile(`^Input\.dispatchMouseEvent mousePressed`),
		regexp.MustCompile(`^Input\.dispatchKeyEvent keyDown`),
		regexp.MustCompile(`^Input\.insertText`),
		regexp.MustCompile(`^Runtime\.(evaluate|callFunctionOn)`),
		regexp.MustCompile(`^Download report\.txt`),
	} {
		if !slices.ContainsFunc(v.Actions, want.MatchString) {
			t.Errorf("the actions list has no %s", want)
		}
	}
	// The clicks, each shown on its page's frame with its point, before
	// the crash and after the relaunch.
	var shownBefore, shownAfter int
	for _, s := range v.Shown {
		if s.Error != "" || s.Width == 0 || s.Height == 0 || !s.Point || !strings.HasPrefix(s.Title, "Input.dispatchMouseEvent mousePressed") {
			continue
		}
		switch {
		case s.Index < crash:
			shownBefore++
		case s.Index > relaunch:
			shownAfter++
		}
	}
	if shownBefore < 2 || shownAfter < 2 {
		t.Errorf("clicks shown on a frame with their point: %d before the crash, %d after the relaunch; want both agents' (%+v)", shownBefore, shownAfter, v.Shown)
	}
	if v.FilmstripLanes < 2 || v.FilmstripFrames < 4 || v.FrameImage == nil || v.FrameImage.Status != 200 || !v.FrameImage.JPEG {
		t.Errorf("the filmstrip: %d lanes, %d frames, a frame's image %+v", v.FilmstripLanes, v.FilmstripFrames, v.FrameImage)
	}
	for _, want := range []string{"form?agent=puppeteer", "form?agent=playwright", "after?agent=puppeteer", "after?agent=playwright", "submitted?len=14"} {
		if !slices.ContainsFunc(v.Network, func(r string) bool { return strings.Contains(r, want) }) {
			t.Errorf("the network tab has no %s (%q)", want, v.Network)
		}
	}
}
