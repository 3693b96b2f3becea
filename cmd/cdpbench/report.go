package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// report is everything a run found; it is also the JSON file.
type report struct {
	Date          string               `json:"date"`
	Commit        string               `json:"checkout_commit,omitempty"` // HEAD where cdpbench ran; --cdpvisor-bin may be another build
	Mode          string               `json:"mode"`                      // "launch" or "endpoints"
	Direct        string               `json:"direct_endpoint"`
	Proxy         string               `json:"cdpvisor_endpoint"`
	Machine       machine              `json:"machine"`
	Config        config               `json:"config"`
	RoundTrip     *roundTripResult     `json:"round_trip,omitempty"`
	NodeRoundTrip *nodeRoundTripResult `json:"round_trip_node,omitempty"`
	Large         *largeResult         `json:"large_messages,omitempty"`
	Fanin         *faninResult         `json:"fan_in,omitempty"`
	ColdStart     *coldResult          `json:"cold_start,omitempty"`
	Recovery      *recoveryResult      `json:"recovery,omitempty"`
	Memory        *memoryResult        `json:"memory,omitempty"`
	Worlds        *worldsResult        `json:"worlds,omitempty"`
	WorldTime     *worldTimeResult     `json:"worldtime,omitempty"`
	LiveView      *liveViewResult      `json:"liveview,omitempty"`
	WorldScale    *worldScaleResult    `json:"worldscale,omitempty"`
	Restore       *restoreResult       `json:"restore,omitempty"`
	Journal       *journalResult       `json:"journal,omitempty"`
	Soak          *soakResult          `json:"soak,omitempty"`
	Recording     *recordingResult     `json:"recording,omitempty"`
	Crowd         *crowdResult         `json:"crowd,omitempty"`
	Skipped       map[string]string    `json:"skipped,omitempty"` // figure → why
	Errors        map[string]string    `json:"errors,omitempty"`  // figure → what failed
	Rows          []row                `json:"table"`
}

// row is one line of the table.
type row struct {
	Figure string `json:"figure"`
	Direct string `json:"direct"`
	Proxy  string `json:"cdpvisor"`
	Diff   string `json:"difference"`
	Target string `json:"target"`
	Met    string `json:"met"`
}

// Targets of the issue.
const (
	targetLargeRatio  = 0.9  // × direct MB/s, 10 MB
	targetFaninP99    = 2.0  // × direct p99
	targetColdDiff    = 50.0 // ms over a bare launch
	targetRecovDiff   = 100.0
	targetIdleMB      = 20.0
	targetClientsMB   = 60.0
	notApplicable     = "–"
	metYes, metNo     = "yes", "NO"
	skippedNeedLaunch = "skipped: needs --launch"
)

func met(ok bool) string {
	if ok {
		return metYes
	}
	return metNo
}

func signed(v float64, unit string, prec int) string {
	return fmt.Sprintf("%+.*f %s", prec, v, unit)
}

// buildRows turns the results into the table, in a fixed order; a figure
// that was skipped or failed gets one row saying so.
func buildRows(r *report) []row {
	var rows []row
	missing := func(name, figure string) {
		if why, ok := r.Errors[name]; ok {
			rows = append(rows, row{Figure: figure, Direct: "error", Proxy: "error", Diff: oneLine(why, 70), Target: notApplicable, Met: metNo})
			return
		}
		why, ok := r.Skipped[name]
		if !ok {
			why = "not measured"
		}
		rows = append(rows, row{Figure: figure, Direct: notApplicable, Proxy: notApplicable, Diff: why, Target: notApplicable, Met: "skipped"})
	}
	if rt := r.RoundTrip; rt != nil {
		rows = append(rows,
			row{"round trip p50 (µs)", f1(rt.Direct.P50), f1(rt.Proxy.P50), signed(rt.DiffP50, "µs", 1), notApplicable, notApplicable},
			row{"round trip p90 (µs)", f1(rt.Direct.P90), f1(rt.Proxy.P90), signed(rt.DiffP90, "µs", 1), notApplicable, notApplicable},
			row{"round trip p99 (µs)", f1(rt.Direct.P99), f1(rt.Proxy.P99), signed(rt.DiffP99, "µs", 1), notApplicable, notApplicable},
			row{"round trip p50, paired batches (µs)", notApplicable, notApplicable, signed(rt.BatchDiffP50, "µs", 1), notApplicable, notApplicable},
		)
		if c := rt.Control; c != nil {
			rows = append(rows,
				row{"round trip p50, same browser (µs)", f1(c.P50) + " (its browser)", f1(rt.Proxy.P50), signed(rt.RelayDiffP50, "µs", 1), notApplicable, notApplicable},
				row{"round trip p99, same browser (µs)", f1(c.P99) + " (its browser)", f1(rt.Proxy.P99), signed(rt.RelayDiffP99, "µs", 1), notApplicable, notApplicable},
			)
		}
	} else {
		missing("roundtrip", "round trip")
	}
	if nr := r.NodeRoundTrip; nr != nil {
		rows = append(rows, nodeRows(nr)...)
	} else {
		missing("roundtrip-node", "round trip, Node client")
	}
	if lg := r.Large; lg != nil {
		for _, t := range lg.Transfers {
			target, ok := notApplicable, notApplicable
			if strings.HasPrefix(t.Name, "10 MB") {
				target, ok = "≥ 0.90×", met(t.Ratio >= targetLargeRatio)
			}
			rows = append(rows, row{t.Name + " (MB/s)", f1(t.DirectMed), f1(t.ProxyMed), fmt.Sprintf("×%.3f", t.Ratio), target, ok})
			if t.ControlMed > 0 {
				target, ok := notApplicable, notApplicable
				if strings.HasPrefix(t.Name, "10 MB") {
					target, ok = "≥ 0.90×", met(t.RelayRatio >= targetLargeRatio)
				}
				rows = append(rows, row{t.Name + ", same browser (MB/s)", f1(t.ControlMed) + " (its browser)", f1(t.ProxyMed), fmt.Sprintf("×%.3f", t.RelayRatio), target, ok})
			}
		}
	} else {
		missing("large", "large messages")
	}
	if fi := r.Fanin; fi != nil {
		label := fmt.Sprintf("fan-in %d×%d", fi.Clients, fi.Requests)
		rows = append(rows,
			row{label + " errors", fmt.Sprint(fi.Direct.Errors), fmt.Sprint(fi.Proxy.Errors), notApplicable, "0", met(fi.Proxy.Errors == 0)},
			row{label + " p50 (µs)", f1(fi.Direct.Latency.P50), f1(fi.Proxy.Latency.P50), fmt.Sprintf("×%.2f", ratio(fi.Proxy.Latency.P50, fi.Direct.Latency.P50)), notApplicable, notApplicable},
			row{label + " p99 (µs)", f1(fi.Direct.Latency.P99), f1(fi.Proxy.Latency.P99), fmt.Sprintf("×%.2f", fi.P99Ratio), "≤ 2×", met(fi.P99Ratio > 0 && fi.P99Ratio <= targetFaninP99)},
			row{label + " throughput (req/s)", f0(fi.Direct.ReqPerSec), f0(fi.Proxy.ReqPerSec), fmt.Sprintf("×%.2f", fi.RPSRatio), notApplicable, notApplicable},
		)
	} else {
		missing("fanin", "fan-in")
	}
	if cs := r.ColdStart; cs != nil {
		rows = append(rows, row{"cold start, median (ms)", f1(cs.BareMedian), f1(cs.ProxyMedian), signed(cs.Diff, "ms", 1), "≤ +50 ms", met(cs.Diff <= targetColdDiff)})
		if cs.Baseline != nil {
			rows = append(rows, baselineRow("cold start vs baseline, median (ms)", cs.Baseline))
		}
	} else {
		missing("coldstart", "cold start")
	}
	if rc := r.Recovery; rc != nil {
		rows = append(rows, row{"recovery after kill -9, median (ms)", f1(rc.BareMedian) + " (bare launch)", f1(rc.RecoveryMedian), signed(rc.Diff, "ms", 1), "≤ +100 ms", met(rc.Diff <= targetRecovDiff)})
		if rc.Baseline != nil {
			rows = append(rows, baselineRow("recovery vs baseline, median (ms)", rc.Baseline))
		}
	} else {
		missing("recovery", "recovery after kill -9")
	}
	if m := r.Memory; m != nil {
		rows = append(rows, row{"cdpvisor RSS idle (MB)", notApplicable, f1(mb(m.IdleFresh.RSSkB)), notApplicable, "≤ 20 MB", met(m.IdleFresh.RSSkB > 0 && mb(m.IdleFresh.RSSkB) <= targetIdleMB)})
		if m.Clients > 0 && m.WithClients.RSSkB > 0 {
			rows = append(rows,
				row{fmt.Sprintf("cdpvisor RSS, %d clients (MB)", m.Clients), notApplicable, f1(mb(m.WithClients.RSSkB)), notApplicable, "≤ 60 MB", met(mb(m.WithClients.RSSkB) <= targetClientsMB)},
				row{"cdpvisor RSS after they left (MB)", notApplicable, f1(mb(m.AfterClients.RSSkB)), notApplicable, notApplicable, notApplicable},
			)
		}
		for i, w := range m.Watchdogs {
			rows = append(rows, row{fmt.Sprintf("cdpvisor watchdog %d RSS (MB, own process)", i+1), notApplicable, f1(mb(w.RSSkB)), notApplicable, notApplicable, notApplicable})
		}
		if m.EndOfRun.HWMkB > 0 {
			rows = append(rows,
				row{"cdpvisor RSS at the end (MB)", notApplicable, f1(mb(m.EndOfRun.RSSkB)), notApplicable, notApplicable, notApplicable},
				row{"cdpvisor peak RSS of the run (MB)", notApplicable, f1(mb(m.EndOfRun.HWMkB)), notApplicable, notApplicable, notApplicable},
			)
		}
		if why, ok := r.Errors["memory"]; ok {
			rows = append(rows, row{"cdpvisor RSS with clients", "error", "error", oneLine(why, 70), notApplicable, metNo})
		}
	} else {
		missing("memory", "cdpvisor memory")
	}
	if w := r.Worlds; w != nil {
		rows = append(rows, worldsRows(w)...)
	} else {
		missing("worlds", "worlds")
	}
	if w := r.WorldTime; w != nil {
		rows = append(rows, worldTimeRows(w)...)
	} else {
		missing("worldtime", "time to a working world")
	}
	if w := r.LiveView; w != nil {
		rows = append(rows, liveViewRows(w)...)
	} else {
		missing("liveview", "the live view's cost")
	}
	if w := r.WorldScale; w != nil {
		rows = append(rows, worldScaleRows(w)...)
	} else {
		missing("worldscale", "how worlds' cost grows")
	}
	if w := r.Restore; w != nil {
		rows = append(rows, restoreRows(w)...)
	} else {
		missing("restore", "restoring a kept world")
	}
	if w := r.Journal; w != nil {
		rows = append(rows, journalRows(w)...)
	} else {
		missing("journal", "the journal's cost")
	}
	if w := r.Soak; w != nil {
		rows = append(rows, soakRows(w)...)
	} else {
		missing("soak", "the soak")
	}
	if w := r.Recording; w != nil {
		rows = append(rows, recordingRows(w)...)
	} else {
		missing("recording", "recording a world")
	}
	if w := r.Crowd; w != nil {
		rows = append(rows, crowdRows(w)...)
	} else {
		missing("crowd", "the crowd")
	}
	return rows
}

func f0(v float64) string { return fmt.Sprintf("%.0f", v) }
func f1(v float64) string { return fmt.Sprintf("%.1f", v) }

var tableHeader = row{"figure", "direct", "cdpvisor", "difference", "target", "met?"}

func (r row) cells() []string { return []string{r.Figure, r.Direct, r.Proxy, r.Diff, r.Target, r.Met} }

// formatTable lays rows out in aligned columns (widths in runes).
func formatTable(rows []row) string {
	all := append([]row{tableHeader}, rows...)
	widths := make([]int, len(tableHeader.cells()))
	for _, r := range all {
		for i, c := range r.cells() {
			if n := len([]rune(c)); n > widths[i] {
				widths[i] = n
			}
		}
	}
	var b strings.Builder
	line := func(r row) {
		cells := r.cells()
		for i, c := range cells {
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		b.WriteString("\n")
	}
	line(all[0])
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	b.WriteString(strings.Repeat("-", total-2) + "\n")
	for _, r := range all[1:] {
		line(r)
	}
	return b.String()
}

// formatMarkdown is the same table for docs/performance.md.
func formatMarkdown(rows []row) string {
	var b strings.Builder
	write := func(cells []string) { writeMarkdownRow(&b, cells) }
	write(tableHeader.cells())
	b.WriteString("|---|---:|---:|---:|---|---|\n")
	for _, r := range rows {
		write(r.cells())
	}
	return b.String()
}

func writeJSON(path string, r *report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// oneLine is the first line of s, cut to n runes (the JSON keeps it whole).
func oneLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// writeMarkdownRow writes one row of a Markdown table, its pipes escaped.
func writeMarkdownRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
	}
	b.WriteString("\n")
}
