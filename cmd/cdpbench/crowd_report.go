package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// How the crowd is told: a row per side in the main table (the headline),
// its own table of every side and N (stdout and --markdown), and a data
// file plotted by crowd.gp (--crowd-data, --crowd-png).

// crowdPaced is whether the bar applies to the side (cdpvisor's;
// the bare Chromium is the reference).
func crowdPaced(side string) bool { return side != crowdChromium }

// crowdRows are the figure's rows in the main table: the bare Chromium in
// the direct column, a cdpvisor side in cdpvisor's.
func crowdRows(r *crowdResult) []row {
	var rows []row
	for _, v := range r.Verdicts {
		cell := fmt.Sprintf("%.2f ÷ %.2f (N=%d)", v.AtLargest, v.Best, v.BestN)
		x := row{
			Figure: fmt.Sprintf("crowd, %s: loops/s all at work, N=%d ÷ best N", v.Side, v.LargestN),
			Direct: notApplicable, Proxy: notApplicable,
			Diff:   fmt.Sprintf("×%.2f, slowest agent ×%.2f", v.Scale, v.Fairness),
			Target: notApplicable, Met: notApplicable,
		}
		if crowdPaced(v.Side) {
			x.Proxy, x.Target, x.Met = cell, "≥ 0.8×, every loop, slowest ≤ 2×", met(v.OK)
		} else {
			x.Direct = cell
		}
		rows = append(rows, x)
	}
	return rows
}

var crowdTableHeader = []string{"N", "side", "loops/s all at work (window s)", "loops/s whole run", "loop p50 / p99 (ms)",
	"done / asked", "time-outs / errors", "slowest ÷ fastest (s)", "setup (s)", "node CPU s (in loops, % of a core)", "cdpvisor CPU s", "load at start"}

// crowdCells is one run's line of the crowd's table.
func crowdCells(x crowdRun) []string {
	if x.Err != "" {
		return []string{fmt.Sprint(x.N), x.Side, "error: " + oneLine(x.Err, 80), "", "", "", "", "", "", "", "", orDash(firstField(x.LoadStart))}
	}
	cv := notApplicable
	if crowdPaced(x.Side) {
		cv = f1(x.CdpvisorCPUS)
	}
	fails := fmt.Sprintf("%d / %d", x.Timeouts, x.Errors)
	if x.SetupFailed > 0 {
		fails += fmt.Sprintf(" (%d agents had no page at the start, %d never)", x.SetupFailed, x.NoPage)
	}
	return []string{
		fmt.Sprint(x.N), x.Side,
		fmt.Sprintf("%.2f (%.1f)", x.WindowLPS, x.WindowS),
		fmt.Sprintf("%.2f", x.WholeLPS),
		fmt.Sprintf("%.0f / %.0f", x.P50ms, x.P99ms),
		fmt.Sprintf("%d / %d", x.Done, x.Asked),
		fails,
		fmt.Sprintf("×%.2f (%.1f ÷ %.1f)", x.Fairness, x.SlowestS, x.FastestS),
		f1(x.SetupS),
		fmt.Sprintf("%.1f (%.1f, %.0f %%)", x.NodeCPUS, x.NodeLoopCPUS, 100*ratio(x.NodeLoopCPUS, x.NodeLoopWallS)),
		cv, orDash(firstField(x.LoadStart)),
	}
}

// firstField is the 1-minute figure of a load average.
func firstField(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return f
}

// formatCrowdMarkdown is the crowd's table and its verdicts, as Markdown
// (stdout shows the same: it reads well as text).
func formatCrowdMarkdown(r *crowdResult) string {
	var b strings.Builder
	write := func(cells []string) { writeMarkdownRow(&b, cells) }
	fmt.Fprintf(&b, "Crowd: agents of puppeteer-core looping goto, evaluate, click, screenshot with no pause; %d Node process(es) a side.\n\n", r.NodeProcs)
	write(crowdTableHeader)
	b.WriteString("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range r.Runs {
		write(crowdCells(x))
	}
	b.WriteString("\n")
	write([]string{"side", "loops/s at the largest N", "best (N)", "largest ÷ best", "worst slowest ÷ fastest", "bar met?", "missed"})
	b.WriteString("|---|---:|---:|---:|---:|---|---|\n")
	for _, v := range r.Verdicts {
		verdict := met(v.OK)
		if !crowdPaced(v.Side) {
			verdict += " (reference)"
		}
		write([]string{v.Side, fmt.Sprintf("%.2f (N=%d)", v.AtLargest, v.LargestN), fmt.Sprintf("%.2f (N=%d)", v.Best, v.BestN),
			fmt.Sprintf("×%.2f", v.Scale), fmt.Sprintf("×%.2f", v.Fairness), verdict, orDash(strings.Join(v.Why, "; "))})
	}
	return b.String()
}

// crowdDataPath is where the plot's data goes: as given, else beside the
// plot; "" when neither is wanted.
func crowdDataPath(dataPath, pngPath string) string {
	if dataPath == "" && pngPath != "" {
		return strings.TrimSuffix(pngPath, filepath.Ext(pngPath)) + ".dat"
	}
	return dataPath
}

// crowdData is the plot's data: a line per N; per side (in r.Sides'
// order) three columns: loops/s all at work, loops/s whole run, loop p50
// in s; NaN where a side has no figure (gnuplot leaves it out).
func crowdData(r *crowdResult) string {
	var b strings.Builder
	b.WriteString("# N")
	for _, s := range r.Sides {
		fmt.Fprintf(&b, " %s_window_lps %s_whole_lps %s_p50_s", s, s, s)
	}
	b.WriteString("\n")
	for _, n := range r.Counts {
		fmt.Fprintf(&b, "%d", n)
		for _, s := range r.Sides {
			w, h, p := math.NaN(), math.NaN(), math.NaN()
			for _, x := range r.Runs {
				if x.Side == s && x.N == n && x.Err == "" {
					w, h, p = x.WindowLPS, x.WholeLPS, x.P50ms/1000
				}
			}
			fmt.Fprintf(&b, " %.3f %.3f %.3f", w, h, p)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeFiles writes the data and, when pngPath is given, plots it with
// gnuplot (crowd.gp).
func (r *crowdResult) writeFiles(dataPath, pngPath string) error {
	data := crowdDataPath(dataPath, pngPath)
	if data == "" {
		return nil
	}
	if err := os.WriteFile(data, []byte(crowdData(r)), 0o644); err != nil {
		return fmt.Errorf("crowd data: %w", err)
	}
	progress("crowd: wrote %s", data)
	if pngPath == "" {
		return nil
	}
	gp := filepath.Join(moduleRoot(), "cmd", "cdpbench", "crowd.gp")
	title := "Agents of puppeteer-core looping with no pause, 2 vCPUs (cdpbench --only crowd)"
	cmd := exec.Command("gnuplot", "-e", fmt.Sprintf("data='%s'; out='%s'; sides='%s'; ttl='%s'", data, pngPath, strings.Join(r.Sides, " "), title), gp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gnuplot: %w: %s", err, out)
	}
	progress("crowd: wrote %s", pngPath)
	return nil
}
