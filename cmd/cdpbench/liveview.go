package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// The live view's cost (issue 36): the coordinator's CPU and memory with /ui
// closed (against today's build, --baseline-bin, when given), with 4
// thumbnails live and with one page watched, in interleaved windows while 4
// agents change their pages; and the frame latency from a page's colour
// change to the frame showing it in /ui (testdata/clients/bench_liveview.mjs).

// targetFrameLatencyP50 is issue 36's goal, in ms.
const targetFrameLatencyP50 = 150.0

// liveViewResult is the figure.
type liveViewResult struct {
	Rounds    int                         `json:"rounds"`
	WindowS   float64                     `json:"window_s"`
	Windows   map[string][]liveViewWindow `json:"windows"`
	Summary   map[string]liveViewWindow   `json:"median"` // each scenario's median window
	LatencyMS []float64                   `json:"latency_ms"`
	P50, P99  float64                     `json:"-"`
}

// liveViewWindow is one window of one scenario.
type liveViewWindow struct {
	CPU float64 `json:"cpu_pct"`
	RSS float64 `json:"rss_kb"`
	PSS float64 `json:"pss_kb"`
}

func (b *bench) measureLiveView(ctx context.Context) (*liveViewResult, error) {
	dir, err := clientsDir()
	if err != nil {
		return nil, err
	}
	type side struct {
		Name     string `json:"name"`
		Endpoint string `json:"endpoint"`
		PID      int    `json:"pid"`
	}
	cv, stopCv, err := b.launchCdpvisor(ctx)
	if err != nil {
		return nil, err
	}
	defer stopCv()
	sides := []side{{"target", cv.endpoint, cv.pid}}
	if b.baseBin != "" {
		base, stopBase, err := b.launchCdpvisorBin(ctx, b.baseBin)
		if err != nil {
			return nil, err
		}
		defer stopBase()
		sides = append(sides, side{"baseline", base.endpoint, base.pid})
	}
	rounds, window, samples := 5, 10*time.Second, 100
	if b.cfg.Quick {
		rounds, window, samples = 2, 4*time.Second, 30
	}
	out, err := runNodeBench(ctx, dir, b.root, "bench_liveview.mjs", map[string]any{"browser": b.browser, "sides": sides, "rounds": rounds, "windowMs": window.Milliseconds(), "samples": samples}, true)
	if err != nil {
		return nil, err
	}
	var res struct {
		OK      bool
		Windows map[string][]struct {
			CPU float64 `json:"cpu_pct"`
			RSS float64 `json:"rss_kb"`
			PSS float64 `json:"pss_kb"`
		}
		LatencyMS []float64 `json:"latency_ms"`
	}
	if err := json.Unmarshal(out, &res); err != nil || !res.OK {
		return nil, fmt.Errorf("bench_liveview.mjs printed %q: %v", tail(string(out), 500), err)
	}
	r := &liveViewResult{Rounds: rounds, WindowS: window.Seconds(), Windows: map[string][]liveViewWindow{}, Summary: map[string]liveViewWindow{}, LatencyMS: res.LatencyMS}
	for name, ws := range res.Windows {
		var cpu, rss, pss []float64
		for _, w := range ws {
			r.Windows[name] = append(r.Windows[name], liveViewWindow(w))
			cpu, rss, pss = append(cpu, w.CPU), append(rss, w.RSS), append(pss, w.PSS)
		}
		r.Summary[name] = liveViewWindow{CPU: medianOf(cpu), RSS: medianOf(rss), PSS: medianOf(pss)}
	}
	lat := make([]time.Duration, len(res.LatencyMS))
	for i, v := range res.LatencyMS {
		lat[i] = time.Duration(v * float64(time.Millisecond))
	}
	r.P50, r.P99 = ms(percentile(lat, 50)), ms(percentile(lat, 99))
	return r, nil
}

func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// liveViewRows are the figure's rows: "direct" is /ui closed (on today's
// build when one was given).
func liveViewRows(r *liveViewResult) []row {
	closed := r.Summary["closed"]
	base, haveBase := r.Summary["baseline_closed"]
	var rows []row
	if haveBase {
		rows = append(rows, row{"coordinator CPU, /ui closed (%, median window)", f1(base.CPU) + " (today)", f1(closed.CPU),
			fmt.Sprintf("%+.1f", closed.CPU-base.CPU), "no difference within noise", notApplicable})
		rows = append(rows, row{"coordinator RSS, /ui closed (MB)", f1(base.RSS/1024) + " (today)", f1(closed.RSS / 1024),
			fmt.Sprintf("%+.1f", (closed.RSS-base.RSS)/1024), "no difference within noise", notApplicable})
	}
	for _, sc := range []struct{ name, words string }{{"thumbnails", "4 thumbnails live"}, {"watched", "one page watched (+3 thumbnails)"}} {
		w := r.Summary[sc.name]
		rows = append(rows, row{"coordinator CPU, " + sc.words + " (%)", f1(closed.CPU) + " (closed)", f1(w.CPU), fmt.Sprintf("%+.1f", w.CPU-closed.CPU), notApplicable, notApplicable})
		rows = append(rows, row{"coordinator RSS, " + sc.words + " (MB)", f1(closed.RSS/1024) + " (closed)", f1(w.RSS / 1024), fmt.Sprintf("%+.1f", (w.RSS-closed.RSS)/1024), notApplicable, notApplicable})
	}
	rows = append(rows, row{fmt.Sprintf("frame latency, colour change to /ui p50 / p99 (ms, %d)", len(r.LatencyMS)), notApplicable,
		f1(r.P50) + " / " + f1(r.P99), notApplicable, "p50 ≤ 150 ms", met(r.P50 <= targetFrameLatencyP50)})
	return rows
}
