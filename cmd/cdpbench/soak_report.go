package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// soakResult is the soak figure.
type soakResult struct {
	Start    time.Time        `json:"start"`
	Duration string           `json:"duration"`
	Agents   int              `json:"agents"`
	Loops    int              `json:"loops_per_run"`
	Faults   []soakFault      `json:"faults"`
	Idle     soakIdle         `json:"idle_stop"`
	PerAgent []soakAgentStats `json:"agents_runs"`
	Samples  []soakSample     `json:"samples"`

	RunsDone         int `json:"runs_done"`
	RunsKilled       int `json:"runs_killed"`
	RunsFailed       int `json:"runs_failed"`
	LoopsDone        int `json:"loops_done"`
	FailuresInFlight int `json:"failures_in_flight_at_a_fault"`
	// FailuresPageGone: of those in flight, the loops begun just after a
	// kill on the page it took, before their client heard (faultPageGone).
	FailuresPageGone int `json:"failures_on_a_page_a_kill_took"`
	// FailuresAfterKill began within killGrace after a kill, with no word
	// from the client that its page had gone.
	FailuresAfterKill int `json:"failures_just_after_a_kill"`
	FailuresOther     int `json:"failures_other"`
	// FailuresStalled: failed loops, of any class, that had waited
	// stallAfter or more (a request nothing answered, until a fault or
	// the loop's own limit ended it).
	FailuresStalled int           `json:"failures_after_a_wait_of_30s"`
	OtherFailures   []soakFailure `json:"other_failures,omitempty"`

	// After the settle time (--soak-settle): each series' median and its
	// spread, the largest distance of a sample from the median in %.
	RSS        soakSpread `json:"rss_mb"`
	Goroutines soakSpread `json:"goroutines"`
	FDs        soakSpread `json:"fds"`
	Threads    soakSpread `json:"threads"`
	StateKB    soakSpread `json:"state_kb"`
	// The levels: each series' median in each window of soakWindow after
	// the settle time, while every agent works (not the idle stop's pause,
	// not the end's tail), and the largest distance of one from their
	// median in %: what "returns to its level after each fault" and "does
	// not grow" are judged on, a sample's own swing being the connections'.
	RSSLevels        soakLevels `json:"rss_mb_levels"`
	GoroutinesLevels soakLevels `json:"goroutines_levels"`
	FDsLevels        soakLevels `json:"fds_levels"`
	// ChromiumTmpMax is the most org.chromium.Chromium.* dirs seen in
	// cdpvisor's $TMPDIR at once (each is a killed browser's leftover).
	ChromiumTmpMax int `json:"chromium_tmp_dirs_max"`
	// StateLargestKB is the largest file seen in the state dir: the worlds'
	// journals grow to their cap and no further (their count is bounded
	// apart: the open worlds' and the newest closed passing ones').
	StateLargestKB int64        `json:"state_largest_kb"`
	Leftovers      []string     `json:"leftovers"`
	Journals       soakJournals `json:"journals"` // in the state dir at the end, by design
	// HeapGrowth is pprof's top of what cdpvisor's heap in use gained from
	// the settle time to the end (soak_heap.go); empty when not measured.
	HeapGrowth []string `json:"heap_growth,omitempty"`
	// Recording is the recordings' figure (soak_record.go); nil when the
	// soak did not record (--soak-record=false).
	Recording *soakRecording `json:"recording,omitempty"`
	Problems  []string       `json:"problems,omitempty"`
}

// journalCapKB is a world's journal's size on disk at most, its two files
// together (journal.DefaultCap): no file of the state dir grows past it.
const journalCapKB = 1 << 10

// soakJournals are the worlds' journal files the run left in the state
// dir: kept by design, each world's under its cap.
type soakJournals struct {
	Files     int   `json:"files"`
	LargestKB int64 `json:"largest_kb"`
}

type soakSpread struct {
	Median    float64 `json:"median"`
	Min       float64 `json:"min"`
	Max       float64 `json:"max"`
	SpreadPct float64 `json:"spread_pct"`
	First     float64 `json:"first"` // first sample after the settle time
	Last      float64 `json:"last"`
}

func spreadOfSamples(v []float64) soakSpread {
	if len(v) == 0 {
		return soakSpread{}
	}
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	sp := soakSpread{Median: med, Min: sorted[0], Max: sorted[len(sorted)-1], First: v[0], Last: v[len(v)-1]}
	if med > 0 {
		sp.SpreadPct = 100 * math.Max(sp.Max-med, med-sp.Min) / med
	}
	return sp
}

type soakLevels struct {
	Levels    []float64 `json:"levels"`
	SpreadPct float64   `json:"spread_pct"`
	GrowthPct float64   `json:"growth_pct"` // the last level over the first
}

// steady: within ±10 % of their median, and the last within 10 % of the
// first (a slow growth would hide in the spread around a median).
func (l soakLevels) steady() bool {
	return len(l.Levels) > 0 && l.SpreadPct <= 10 && math.Abs(l.GrowthPct) <= 10
}

// soakWindow is the span of one level.
const soakWindow = 5 * time.Minute

func levelsOf(windows [][]float64) soakLevels {
	var l soakLevels
	for _, w := range windows {
		if len(w) > 0 {
			l.Levels = append(l.Levels, spreadOfSamples(w).Median)
		}
	}
	if s := spreadOfSamples(l.Levels); len(l.Levels) > 0 {
		l.SpreadPct = s.SpreadPct
		if first := l.Levels[0]; first > 0 {
			l.GrowthPct = 100 * (l.Levels[len(l.Levels)-1] - first) / first
		}
	}
	return l
}

// classify tells each failure a request in flight at a fault (its loop
// began before the fault's end and failed after the fault) from the rest.
func (r *soakResult) classify() {
	for i := range r.PerAgent {
		st := &r.PerAgent[i]
		r.RunsDone += st.RunsDone
		r.RunsKilled += st.RunsKilled
		r.RunsFailed += st.RunsFailed
		r.LoopsDone += st.Loops
		for j := range st.Failures {
			f := &st.Failures[j]
			for _, fault := range r.Faults {
				if fault.Missed != "" || (fault.Kind == "agent" && fault.Agent != st.Agent) {
					continue
				}
				if !f.T0.After(fault.Until) && !f.T1.Before(fault.At) {
					f.Fault = fault.Kind
					break
				}
			}
			if f.Fault == "" && r.pageGoneWithAKill(f) {
				f.Fault = faultPageGone
			}
			if f.Fault == "" && r.justAfterAKill(f.T0) {
				f.Fault = faultAfterKill
			}
			if f.T1.Sub(f.T0) >= stallAfter {
				r.FailuresStalled++
			}
			switch f.Fault {
			case "":
				r.FailuresOther++
				r.OtherFailures = append(r.OtherFailures, *f)
			case faultAfterKill:
				r.FailuresAfterKill++
			case faultPageGone:
				r.FailuresInFlight++
				r.FailuresPageGone++
			default:
				r.FailuresInFlight++
			}
		}
	}
}

// killGrace: a loop begun this soon after a kill -9 used a page that had
// gone with the browser before its client could hear of it (under the
// soak's load, the news took up to a second or two).
const killGrace = 5 * time.Second

const faultAfterKill = "just after a kill"

// faultPageGone: a loop begun just after a kill (killGrace) on the page
// the kill took, before its client heard the page close (the client says
// when: Gone, at most goneNews after the kill). Its request was sent with
// the news of the kill still in flight, so it counts in flight at the
// kill: the client's evidence, not the time alone.
const faultPageGone = "kill: its page gone before the client heard"

// stallAfter: a failed loop that had waited this long waited on something
// nothing answered (a loop takes 2–45 s at the soak's load).
const stallAfter = 30 * time.Second

// goneNews: a page heard closed this long after a kill went with it.
const goneNews = 10 * time.Second

func (r *soakResult) pageGoneWithAKill(f *soakFailure) bool {
	if f.Gone.IsZero() || f.Gone.Before(f.T0) {
		return false
	}
	for _, fault := range r.Faults {
		if fault.Kind == "kill" && fault.Missed == "" && !fault.At.After(f.T0) && f.T0.Sub(fault.At) <= killGrace && f.Gone.Sub(fault.At) <= goneNews {
			return true
		}
	}
	return false
}

func (r *soakResult) justAfterAKill(t0 time.Time) bool {
	for _, fault := range r.Faults {
		if fault.Kind == "kill" && fault.Missed == "" && !t0.Before(fault.At) && t0.Sub(fault.At) <= killGrace {
			return true
		}
	}
	return false
}

// summarize takes the spreads of the samples after settle, and the levels
// of those taken while every agent worked (before duration, out of the
// idle stop's pause).
func (r *soakResult) summarize(settle, duration time.Duration) {
	var rss, gor, fds, thr, state []float64
	n := max(0, int((duration-settle)/soakWindow)) + 1
	levels := [3][][]float64{make([][]float64, n), make([][]float64, n), make([][]float64, n)}
	for _, x := range r.Samples {
		r.ChromiumTmpMax = max(r.ChromiumTmpMax, x.ChromiumTmp)
		r.StateLargestKB = max(r.StateLargestKB, x.StateLargestKB)
		if x.T < settle.Seconds() {
			continue
		}
		rss, gor, fds = append(rss, x.RSSMB), append(gor, float64(x.Goroutines)), append(fds, float64(x.FDs))
		thr, state = append(thr, float64(x.Threads)), append(state, float64(x.StateKB))
		if x.T >= duration.Seconds() {
			continue
		}
		w := min(int((time.Duration(x.T*float64(time.Second))-settle)/soakWindow), n-1)
		for i, v := range []float64{x.RSSMB, float64(x.Goroutines), float64(x.FDs)} {
			levels[i][w] = append(levels[i][w], v)
		}
	}
	// The window of the idle stop is no level: every agent stopped, then
	// came back 3 s apart.
	for w := range n {
		from := settle.Seconds() + float64(w)*soakWindow.Seconds()
		if r.inIdlePause(from, from+soakWindow.Seconds()) {
			levels[0][w], levels[1][w], levels[2][w] = nil, nil, nil
		}
	}
	r.RSS, r.Goroutines, r.FDs = spreadOfSamples(rss), spreadOfSamples(gor), spreadOfSamples(fds)
	r.Threads, r.StateKB = spreadOfSamples(thr), spreadOfSamples(state)
	r.RSSLevels, r.GoroutinesLevels, r.FDsLevels = levelsOf(levels[0]), levelsOf(levels[1]), levelsOf(levels[2])
}

// inIdlePause: the span [a, b) (s since the start) meets the agents' pause
// for the idle stop, or their coming back (90 s at most).
func (r *soakResult) inIdlePause(a, b float64) bool {
	if r.Idle.At.IsZero() {
		return false
	}
	from := r.Idle.At.Sub(r.Start).Seconds()
	return a < from+r.Idle.WaitedS+90 && b > from
}

// samplesPath is where the samples' CSV goes: csvPath, else beside the
// plot; "" when neither is kept.
func samplesPath(csvPath, pngPath string) string {
	if csvPath == "" && pngPath != "" {
		return strings.TrimSuffix(pngPath, filepath.Ext(pngPath)) + ".csv"
	}
	return csvPath
}

// writeFiles writes the samples as CSV and, when gnuplot is there, the
// plot of RSS, goroutines and fds (soak.gp).
func (r *soakResult) writeFiles(csvPath, pngPath string) error {
	if csvPath == "" && pngPath == "" {
		return nil
	}
	var b strings.Builder
	// The recordings' columns come last (16 on): the plot reads columns by
	// their place. Empty where a sample had no answer.
	b.WriteString("t_min,rss_mb,goroutines,fds,threads,heap_inuse_mb,state_files,state_kb,state_largest_kb,browser_processes,worlds,chromium_tmp_dirs,active_runs,loops,failures," +
		"rec_mb,rec_worlds,rec_frames_received,rec_frames_written,rec_notes_dropped,rec_dropped_mb,rec_write_failures,rec_pages,rec_disk_mb\n")
	for _, x := range r.Samples {
		fmt.Fprintf(&b, "%.2f,%.1f,%d,%d,%d,%.1f,%d,%d,%d,%d,%d,%d,%d,%d,%d,", x.T/60, x.RSSMB, x.Goroutines, x.FDs, x.Threads,
			x.HeapMB, x.StateFiles, x.StateKB, x.StateLargestKB, x.BrowserProcs, x.Worlds, x.ChromiumTmp, x.ActiveRuns, x.Loops, x.Failures)
		if t := x.Rec; t != nil {
			fmt.Fprintf(&b, "%.2f,%d,%d,%d,%d,%.2f,%d,%d,%.2f\n", float64(t.Bytes)/(1<<20), t.Worlds, t.FramesReceived, t.FramesWritten,
				t.NotesDropped, float64(t.DroppedBytes)/(1<<20), t.WriteFailures, t.Pages, float64(x.RecDisk.Bytes)/(1<<20))
		} else {
			b.WriteString(",,,,,,,,\n")
		}
	}
	data := samplesPath(csvPath, pngPath)
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("soak samples: %w", err)
	}
	if pngPath == "" {
		return nil
	}
	gp := filepath.Join(moduleRoot(), "cmd", "cdpbench", "soak.gp")
	var faults []string
	for _, f := range r.Faults {
		if f.Missed == "" && f.Kind != "agent" {
			faults = append(faults, fmt.Sprintf("%.2f", f.At.Sub(r.Start).Minutes()))
		}
	}
	title := fmt.Sprintf("cdpvisor soak: %d agents, %s, browser kill -9 and hangs (marks)", r.Agents, r.Duration)
	reccap := 0.0 // no recordings' panel
	if r.Recording != nil {
		reccap = float64(r.Recording.TotalCap) / (1 << 20)
		title += fmt.Sprintf(", every world recorded (cap %.0f MB)", reccap)
	}
	cmd := exec.Command("gnuplot", "-e", fmt.Sprintf("data='%s'; out='%s'; faults='%s'; ttl='%s'; reccap=%g", data, pngPath, strings.Join(faults, " "), title, reccap), gp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gnuplot: %w: %s", err, out)
	}
	return nil
}

// soakRows are the figure's rows.
func soakRows(r *soakResult) []row {
	sp := func(s soakSpread, unit string) string {
		return fmt.Sprintf("%.0f%s (%.0f–%.0f, ±%.0f %%)", s.Median, unit, s.Min, s.Max, s.SpreadPct)
	}
	lv := func(l soakLevels) string {
		parts := make([]string, len(l.Levels))
		for i, v := range l.Levels {
			parts[i] = fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%s (±%.0f %%, last %+.0f %%)", strings.Join(parts, " "), l.SpreadPct, l.GrowthPct)
	}
	// A run too short to leave a level after the settle time (and out of
	// the idle stop's window) is not judged on levels.
	steady := func(l soakLevels) string {
		if len(l.Levels) == 0 {
			return levelsTooShort
		}
		return met(l.steady())
	}
	kills, hangs, agents := 0, 0, 0
	for _, f := range r.Faults {
		if f.Missed != "" {
			continue
		}
		switch f.Kind {
		case "kill":
			kills++
		case "hang":
			hangs++
		default:
			agents++
		}
	}
	rows := []row{
		{fmt.Sprintf("soak %s, %d agents: runs done / killed / failed, loops", r.Duration, r.Agents), notApplicable,
			fmt.Sprintf("%d / %d / %d, %d loops", r.RunsDone, r.RunsKilled, r.RunsFailed, r.LoopsDone), notApplicable, "0 failed", met(r.RunsFailed == 0)},
		{fmt.Sprintf("soak: failures in flight at a fault (on a page a kill took, heard after) / begun ≤ 5 s after a kill / others (%d kills, %d hangs, %d agents killed)", kills, hangs, agents), notApplicable,
			fmt.Sprintf("%d (%d) / %d / %d", r.FailuresInFlight, r.FailuresPageGone, r.FailuresAfterKill, r.FailuresOther), notApplicable, "0 but in flight", met(r.FailuresOther == 0 && r.FailuresAfterKill == 0)},
		{"soak: failed loops that had waited ≥ 30 s, any class", notApplicable, fmt.Sprint(r.FailuresStalled), notApplicable, notApplicable, notApplicable},
		{"soak: coordinator RSS MB after settle, samples", notApplicable, sp(r.RSS, ""), notApplicable, notApplicable, notApplicable},
		{"soak: goroutines after settle, samples", notApplicable, sp(r.Goroutines, ""), notApplicable, notApplicable, notApplicable},
		{"soak: open fds after settle, samples", notApplicable, sp(r.FDs, ""), notApplicable, notApplicable, notApplicable},
		{"soak: coordinator RSS MB, 5-min levels", notApplicable, lv(r.RSSLevels), notApplicable, "±10 %, last ±10 %", steady(r.RSSLevels)},
		{"soak: goroutines, 5-min levels", notApplicable, lv(r.GoroutinesLevels), notApplicable, "±10 %, last ±10 %", steady(r.GoroutinesLevels)},
		{"soak: open fds, 5-min levels", notApplicable, lv(r.FDsLevels), notApplicable, "±10 %, last ±10 %", steady(r.FDsLevels)},
		{"soak: state dir KB after settle, samples; its largest file KB, most", notApplicable, fmt.Sprintf("%s; %d", sp(r.StateKB, ""), r.StateLargestKB), notApplicable,
			fmt.Sprintf("largest ≤ %d (a journal's cap)", journalCapKB), met(r.StateLargestKB <= journalCapKB)},
		{"soak: org.chromium.Chromium.* in cdpvisor's TMPDIR (most at once)", notApplicable, fmt.Sprint(r.ChromiumTmpMax), notApplicable, "0", met(r.ChromiumTmpMax == 0)},
		// The bar: no failure but requests in flight at a fault,
		// and no file left, journals included (kept by design, counted
		// apart, not let off).
		{"soak: left when it ended, journals apart", notApplicable, fmt.Sprint(len(r.Leftovers)), notApplicable, "0", met(len(r.Leftovers) == 0)},
		{"soak: worlds' journals left (files, largest KB)", notApplicable, fmt.Sprintf("%d, %d", r.Journals.Files, r.Journals.LargestKB), notApplicable, "0", met(r.Journals.Files == 0)},
	}
	return append(rows, soakRecordingRows(r)...)
}

// levelsTooShort is a level verdict's place when the run left no level.
const levelsTooShort = "too short"
