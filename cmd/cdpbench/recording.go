package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// Recording a world (issue 49), cdpbench --launch --only recording: one
// `cdpvisor serve` with two worlds on its browser, `plain` and `filmed`
// (opened with {"record": true}), each with a 1280×720 page that changes
// every animation frame (testdata/clients/bench_recording.mjs):
//   - the client's yardstick, interleaved between the worlds in a random
//     order per step: page round trips and page loads through Puppeteer,
//     the recorded world's against the plain one's (and, first, a control
//     run with neither recorded: the two worlds' own difference);
//   - the coordinator's CPU and RSS (and its browser's CPU) in windows
//     alternating between `filmed` not recorded and recorded, then with 4
//     busy worlds none and all recorded: the cost per recorded busy world;
//   - the recording's size a minute and frames a second while recorded,
//     and frames received against frames written.

// Targets of issue 49.
const (
	targetRecordingTripRatio = 1.10 // recorded ÷ plain, round trip p50
	targetRecordingLoadRatio = 1.10 // recorded ÷ plain, page load p50
	targetRecordingMBPerMin  = 5.0  // MB (10⁶ bytes) a minute, one busy page at 1280×720
)

// The busy pages, 1280×720 canvases repainted every animation frame.
// The bench's page is a scene redrawn whole each frame (a gradient, a
// dozen lines of text, 40 rectangles moving, a counter), so its frames
// stay the same size however long it runs. The worst page for JPEG is the
// recorder's own cost test's (actors/recorder_cost_linux_test.go): 40
// rectangles a frame piled up, never cleared, until the canvas is noise.
const (
	recordingPagePath = "/busy"
	noisePagePath     = "/noise"
	busyPageHead      = `<!doctype html><html><head><meta charset="utf-8"><title>cdpbench busy page</title>` +
		`<style>html,body{margin:0;overflow:hidden;background:#fff}canvas{display:block}</style></head>` +
		`<body><canvas id=c width=1280 height=720></canvas><script>
const g=document.getElementById('c').getContext('2d');let n=0;
`
	recordingPageHTML = busyPageHead + `const bg=g.createLinearGradient(0,0,0,720);bg.addColorStop(0,'#f4f6fb');bg.addColorStop(1,'#c9d3e6');
const text='The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. Sphinx of black quartz, judge my vow.';
(function f(){g.fillStyle=bg;g.fillRect(0,0,1280,720);g.fillStyle='#223';g.font='18px sans-serif';
for(let l=0;l<12;l++)g.fillText(text,40,140+l*26);
for(let i=0;i<40;i++){g.fillStyle='hsl('+((n*3+i*9)%360)+',70%,50%)';g.fillRect((i*97+n*4)%1280,(i*53+n*2)%720,120,70)}
g.fillStyle='#000';g.font='48px sans-serif';g.fillText('frame '+(n++),40,80);requestAnimationFrame(f)})();</script></body></html>`
	noisePageHTML = busyPageHead + `(function f(){for(let i=0;i<40;i++){g.fillStyle='hsl('+((n*7+i*9)%360)+',70%,50%)';g.fillRect((i*97+n*13)%1280,(i*53+n*7)%720,160,90)}
g.fillStyle='#000';g.font='48px sans-serif';g.fillText('frame '+(n++),40,80);requestAnimationFrame(f)})();</script></body></html>`
)

// recordingResult is the figure.
type recordingResult struct {
	Steps        int `json:"steps"`         // yardstick steps (a round trip in each world)
	LoadEvery    int `json:"load_every"`    // a page load in each world every this many steps
	ControlSteps int `json:"control_steps"` // the control run's steps (none recorded)

	// Each world's (plain, filmed, cast) while filmed was recorded and cast
	// screencast by the bench; and in the control run.
	Trips   map[string]msSummary `json:"round_trip_ms"`
	Loads   map[string]msSummary `json:"page_load_ms"`
	Control struct {
		Trips map[string]msSummary `json:"round_trip_ms"`
		Loads map[string]msSummary `json:"page_load_ms"`
	} `json:"control"`
	TripRatio        ratios `json:"round_trip_ratio"`         // filmed ÷ plain
	LoadRatio        ratios `json:"page_load_ratio"`          // filmed ÷ plain
	CastTripRatio    ratios `json:"cast_round_trip_ratio"`    // cast ÷ plain
	CastLoadRatio    ratios `json:"cast_page_load_ratio"`     // cast ÷ plain
	ControlTripRatio ratios `json:"control_round_trip_ratio"` // filmed ÷ plain, neither recorded
	ControlLoadRatio ratios `json:"control_page_load_ratio"`
	Cast             struct {
		Frames float64 `json:"frames"`
		Bytes  float64 `json:"bytes"`
		MS     float64 `json:"ms"`
	} `json:"cast"` // the bench's own screencast in the yardstick

	WindowS float64                      `json:"window_s"`
	Rounds  int                          `json:"rounds"`
	Rounds4 int                          `json:"rounds_busy"`
	Busy    int                          `json:"busy_worlds"` // worlds of the second phase
	Windows map[string][]recordingWindow `json:"windows"`     // off, on, cast, offN, onN
	Median  map[string]recordingWindow   `json:"median"`
	// The coordinator's (and its browser's) CPU, % of a core, and RSS, MB,
	// per recorded busy world: on − off, and (onN − offN) ÷ N.
	CPUPerWorld         float64 `json:"cpu_pct_per_world"`
	BrowserCPUPerWorld  float64 `json:"browser_cpu_pct_per_world"`
	RSSPerWorldMB       float64 `json:"rss_mb_per_world"`
	CPUPerWorldN        float64 `json:"cpu_pct_per_world_busy"`
	BrowserCPUPerWorldN float64 `json:"browser_cpu_pct_per_world_busy"`
	RSSPerWorldNMB      float64 `json:"rss_mb_per_world_busy"`

	Spans []recordedSpan `json:"recorded"` // each time worlds were recorded
	// The recording's growth per world: "busy" one world on the bench's
	// page in the yardstick, "busy-windows" in the windows, "busyN" each
	// of N, "noise" one on the worst page.
	Sizes map[string]recordingSize `json:"sizes"`

	Status recordingStatus `json:"status"` // the filmed world's at the end
	Totals recordingStatus `json:"totals"` // every recording's at the end
}

// recordingSize is a recording's growth a world.
type recordingSize struct {
	Worlds   int     `json:"worlds"`
	Seconds  float64 `json:"seconds"`
	MBPerMin float64 `json:"mb_per_min"` // 10⁶ bytes
	FPS      float64 `json:"frames_per_s"`
	FrameKB  float64 `json:"mean_frame_kb"`
}

// msSummary is a set of latencies in ms.
type msSummary struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P90 float64 `json:"p90_ms"`
	P99 float64 `json:"p99_ms"`
}

type ratios struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
}

type recordingWindow struct {
	CPU        float64 `json:"cpu_pct"`
	BrowserCPU float64 `json:"browser_cpu_pct"`
	RSS        float64 `json:"rss_kb"`
	// PageFPS is how fast the filmed world's page drew (its animation
	// frames a second); ByKind the browser's CPU by kind of process
	// (browser, gpu-process, renderer, utility…).
	PageFPS float64            `json:"page_fps"`
	ByKind  map[string]float64 `json:"by_kind,omitempty"`
	// The browser's processes gone (their last ticks not counted) and new
	// during the window.
	ProcsGone int `json:"procs_gone,omitempty"`
	ProcsNew  int `json:"procs_new,omitempty"`
}

type recordedSpan struct {
	Worlds         int     `json:"worlds"`
	Phase          string  `json:"phase"`
	MS             float64 `json:"ms"`
	Bytes          int64   `json:"bytes"`
	FramesReceived int64   `json:"frames_received"`
	FramesWritten  int64   `json:"frames_written"`
}

// recordingStatus is what cdpbench reads of GET
// /cdpvisor/worlds/NAME/recording and /cdpvisor/recordings (the
// recorder's Totals), with a struct of its own: it measures a binary. The
// counts are the coordinator's since it started; bytes and worlds what is
// kept now.
type recordingStatus struct {
	Recorded       bool  `json:"recorded"`
	Worlds         int   `json:"worlds"` // /cdpvisor/recordings only
	Bytes          int64 `json:"bytes"`
	DroppedBytes   int64 `json:"dropped_bytes"`
	FramesReceived int64 `json:"frames_received"`
	FramesWritten  int64 `json:"frames_written"`
	WriteFailures  int64 `json:"write_failures"`
	NotesDropped   int64 `json:"notes_dropped"`
	Pages          int   `json:"pages"`
	// FrameGaps counts the gaps between the filmed world's pages' frames
	// by length (bench_recording.mjs, from the recording's frame list).
	FrameGaps map[string]int `json:"frame_gaps,omitempty"`
}

// recordingOut is what bench_recording.mjs prints.
type recordingOut struct {
	OK      bool                 `json:"ok"`
	Trips   map[string][]float64 `json:"trips"`
	Loads   map[string][]float64 `json:"loads"`
	Control struct{ Trips, Loads map[string][]float64 }
	Cast    struct{ Frames, Bytes, MS float64 }
	Windows map[string][]recordingWindow `json:"windows"`
	Spans   []recordedSpan               `json:"recorded"`
	Status  recordingStatus              `json:"status"`
	Totals  recordingStatus              `json:"totals"`
}

func (b *bench) measureRecording(ctx context.Context) (*recordingResult, error) {
	if !haveProcfs {
		return nil, errors.New("needs /proc (Linux): the coordinator's CPU")
	}
	dir, err := clientsDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "puppeteer-core")); err != nil {
		return nil, fmt.Errorf("no puppeteer-core in %s: run .ci/setup (npm ci) first", dir)
	}
	site, stopPage, err := startBusyPage()
	if err != nil {
		return nil, err
	}
	defer stopPage()
	cv, stopCv, err := b.launchCdpvisor(ctx)
	if err != nil {
		return nil, err
	}
	defer stopCv()
	steps, loadEvery, control, rounds, rounds4, window, settle := 1000, 16, 300, 5, 3, 10*time.Second, 3*time.Second
	noiseFill, noise := 30*time.Second, 60*time.Second
	if b.cfg.Quick {
		steps, loadEvery, control, rounds, rounds4, window, settle = 200, 20, 60, 2, 1, 4*time.Second, 2*time.Second
		noiseFill, noise = 10*time.Second, 15*time.Second
	}
	const busy = 4
	out, err := runNodeBench(ctx, dir, b.root, "bench_recording.mjs", map[string]any{
		"endpoint": cv.endpoint, "pid": cv.pid, "page": site + recordingPagePath, "noisePage": site + noisePagePath,
		"noiseFillMs": noiseFill.Milliseconds(), "noiseMs": noise.Milliseconds(),
		"steps": steps, "loadEvery": loadEvery, "controlSteps": control,
		"rounds": rounds, "rounds4": rounds4, "busy": busy,
		"windowMs": window.Milliseconds(), "settleMs": settle.Milliseconds(),
	}, true)
	if err != nil {
		return nil, err
	}
	var res recordingOut
	if err := json.Unmarshal(out, &res); err != nil || !res.OK {
		return nil, fmt.Errorf("bench_recording.mjs printed %q: %v", tail(string(out), 500), err)
	}
	r := summarizeRecording(res, busy)
	r.Steps, r.LoadEvery, r.ControlSteps = steps, loadEvery, control
	r.WindowS, r.Rounds, r.Rounds4 = window.Seconds(), rounds, rounds4
	return r, nil
}

// startBusyPage serves the busy page on loopback.
func startBusyPage() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	for path, html := range map[string]string{recordingPagePath: recordingPageHTML, noisePagePath: noisePageHTML} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(html))
		})
	}
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// summarizeRecording turns the script's samples into the figure.
func summarizeRecording(res recordingOut, busy int) *recordingResult {
	r := &recordingResult{Busy: busy, Windows: res.Windows, Median: map[string]recordingWindow{}, Spans: res.Spans,
		Sizes: map[string]recordingSize{}, Status: res.Status, Totals: res.Totals}
	r.Cast.Frames, r.Cast.Bytes, r.Cast.MS = res.Cast.Frames, res.Cast.Bytes, res.Cast.MS
	r.Trips, r.Loads = msSides(res.Trips), msSides(res.Loads)
	r.Control.Trips, r.Control.Loads = msSides(res.Control.Trips), msSides(res.Control.Loads)
	r.TripRatio, r.LoadRatio = sideRatio(r.Trips, "filmed", "plain"), sideRatio(r.Loads, "filmed", "plain")
	r.CastTripRatio, r.CastLoadRatio = sideRatio(r.Trips, "cast", "plain"), sideRatio(r.Loads, "cast", "plain")
	r.ControlTripRatio, r.ControlLoadRatio = sideRatio(r.Control.Trips, "filmed", "plain"), sideRatio(r.Control.Loads, "filmed", "plain")
	for name, ws := range res.Windows {
		r.Median[name] = medianWindow(ws)
	}
	off, on := r.Median["off"], r.Median["on"]
	r.CPUPerWorld, r.BrowserCPUPerWorld, r.RSSPerWorldMB = on.CPU-off.CPU, on.BrowserCPU-off.BrowserCPU, (on.RSS-off.RSS)/1024
	offN, onN := r.Median[fmt.Sprintf("off%d", busy)], r.Median[fmt.Sprintf("on%d", busy)]
	n := float64(busy)
	r.CPUPerWorldN, r.BrowserCPUPerWorldN, r.RSSPerWorldNMB = (onN.CPU-offN.CPU)/n, (onN.BrowserCPU-offN.BrowserCPU)/n, (onN.RSS-offN.RSS)/1024/n
	r.Sizes = recordingSizes(res.Spans, busy)
	return r
}

// medianWindow is each figure's median over the windows.
func medianWindow(ws []recordingWindow) recordingWindow {
	var cpu, bcpu, rss, fps []float64
	kinds := map[string][]float64{}
	for _, w := range ws {
		cpu, bcpu, rss, fps = append(cpu, w.CPU), append(bcpu, w.BrowserCPU), append(rss, w.RSS), append(fps, w.PageFPS)
		for k, v := range w.ByKind {
			kinds[k] = append(kinds[k], v)
		}
	}
	m := recordingWindow{CPU: medianFloat(cpu), BrowserCPU: medianFloat(bcpu), RSS: medianFloat(rss), PageFPS: medianFloat(fps)}
	if len(kinds) > 0 {
		m.ByKind = map[string]float64{}
		for k, v := range kinds {
			m.ByKind[k] = medianFloat(v)
		}
	}
	return m
}

// recordingSizes adds the spans up by what was recorded: "busy" (the
// yardstick's span: one world, its page loaded every few steps),
// "busy-windows" (the windows' spans, each begun with the browser's first
// frames at once), "busyN" (N worlds, per world), "noise".
func recordingSizes(spans []recordedSpan, busy int) map[string]recordingSize {
	type acc struct {
		worlds int
		ms     float64
		bytes  int64
		frames int64
	}
	sums := map[string]*acc{}
	for _, s := range spans {
		key := s.Phase
		switch s.Phase {
		case "yardstick":
			key = "busy"
		case "on":
			key = "busy-windows"
		case fmt.Sprintf("on%d", busy):
			key = fmt.Sprintf("busy%d", busy)
		}
		a := sums[key]
		if a == nil {
			a = &acc{worlds: s.Worlds}
			sums[key] = a
		}
		a.ms += s.MS
		a.bytes += s.Bytes
		a.frames += s.FramesWritten
	}
	out := map[string]recordingSize{}
	for key, a := range sums {
		if a.ms <= 0 || a.worlds <= 0 {
			continue
		}
		w := float64(a.worlds)
		sz := recordingSize{Worlds: a.worlds, Seconds: a.ms / 1000,
			MBPerMin: float64(a.bytes) / 1e6 / (a.ms / 60000) / w, FPS: float64(a.frames) / (a.ms / 1000) / w}
		if a.frames > 0 {
			sz.FrameKB = float64(a.bytes) / 1e3 / float64(a.frames)
		}
		out[key] = sz
	}
	return out
}

// msSides summarizes each side's samples (ms).
func msSides(samples map[string][]float64) map[string]msSummary {
	out := map[string]msSummary{}
	for name, v := range samples {
		d := make([]time.Duration, len(v))
		for i, x := range v {
			d[i] = time.Duration(x * float64(time.Millisecond))
		}
		out[name] = msSummary{N: len(v), P50: ms(percentile(d, 50)), P90: ms(percentile(d, 90)), P99: ms(percentile(d, 99))}
	}
	return out
}

// sideRatio is side a's p50 and p90 over side b's.
func sideRatio(s map[string]msSummary, a, b string) ratios {
	return ratios{P50: ratio(s[a].P50, s[b].P50), P90: ratio(s[a].P90, s[b].P90)}
}

// framesLost says what is wrong with the frames: none received (nothing
// was recorded), or some received and not written.
func (r *recordingResult) framesLost() error {
	for _, s := range []struct {
		what string
		st   recordingStatus
	}{{"the filmed world", r.Status}, {"every recording", r.Totals}} {
		switch {
		case s.st.FramesReceived == 0:
			return fmt.Errorf("recording: %s received no frame", s.what)
		case s.st.FramesReceived != s.st.FramesWritten:
			return fmt.Errorf("recording: %s received %d frames and wrote %d", s.what, s.st.FramesReceived, s.st.FramesWritten)
		case s.st.WriteFailures != 0:
			return fmt.Errorf("recording: %s had %d write failures", s.what, s.st.WriteFailures)
		}
	}
	return nil
}
