package main

import (
	"fmt"
	"sort"
	"strings"
)

// worldsRows are the worlds figure's rows of the table. The "direct"
// column holds the side compared against (separate browsers, the
// unprefixed endpoint), the "cdpvisor" column the worlds.
func worldsRows(w *worldsResult) []row {
	a, b := w.Median[worldsSideWorlds], w.Median[worldsSideBrowsers]
	n := w.Agents
	rangeOf := func(s spread) string {
		if len(s.Values) < 2 {
			return fmt.Sprintf("×%.3f", s.Median)
		}
		return fmt.Sprintf("×%.3f (%.3f–%.3f)", s.Median, s.Min, s.Max)
	}
	label := fmt.Sprintf("worlds: PSS, %d agents × %d pages (MB, median of %d)", n, w.PagesPerAgent, w.Rounds)
	rows := []row{
		{label, fmt.Sprintf("%.1f (%d browsers)", b.PSSAll, n), fmt.Sprintf("%.1f (%d worlds)", a.PSSAll, n), rangeOf(w.Ratio),
			fmt.Sprintf("≤ %.2f×", targetWorldsPSSRatio), met(w.Ratio.Median > 0 && w.Ratio.Median <= targetWorldsPSSRatio)},
	}
	if a.PSSFileOnce > 0 && b.PSSFileOnce > 0 {
		rows = append(rows,
			row{"worlds: PSS, file pages once per side (MB)", fmt.Sprintf("%.1f (%d browsers)", b.PSSFileOnce, n), fmt.Sprintf("%.1f (%d worlds)", a.PSSFileOnce, n), rangeOf(w.RatioFileOnce),
				fmt.Sprintf("≤ %.2f×", targetWorldsPSSRatio), met(w.RatioFileOnce.Median > 0 && w.RatioFileOnce.Median <= targetWorldsPSSRatio)},
			row{"worlds: PSS per added agent, file pages once (MB)", fmt.Sprintf("%.1f (a browser)", b.MargFileOne), fmt.Sprintf("%.1f (a world)", a.MargFileOne),
				fmt.Sprintf("×%.3f", ratio(a.MargFileOne, b.MargFileOne)), notApplicable, notApplicable},
		)
	}
	rows = append(rows, []row{
		{"worlds: PSS, one agent (MB)", fmt.Sprintf("%.1f (1 browser)", b.PSSOne), fmt.Sprintf("%.1f (1 world)", a.PSSOne),
			fmt.Sprintf("×%.3f", ratio(a.PSSOne, b.PSSOne)), notApplicable, notApplicable},
		{"worlds: PSS per added agent (MB)", fmt.Sprintf("%.1f (a browser)", b.Marginal), fmt.Sprintf("%.1f (a world)", a.Marginal),
			fmt.Sprintf("×%.3f", ratio(a.Marginal, b.Marginal)), notApplicable, notApplicable},
	}...)
	if c, ok := w.Median[worldsSideContexts]; ok {
		rows = append(rows,
			row{"worlds: PSS, Chromium's own contexts (MB)", fmt.Sprintf("%.1f (%d browsers)", b.PSSAll, n), fmt.Sprintf("%.1f (%d contexts)", c.PSSAll, n),
				rangeOf(w.ContextsRatio), notApplicable, notApplicable},
			row{"worlds: PSS, worlds ÷ Chromium's contexts (MB)", fmt.Sprintf("%.1f (%d contexts)", c.PSSAll, n), fmt.Sprintf("%.1f (%d worlds)", a.PSSAll, n),
				rangeOf(w.WorldsOverCtx), notApplicable, notApplicable},
			row{"worlds: PSS per added context (MB)", fmt.Sprintf("%.1f (a browser)", b.Marginal), fmt.Sprintf("%.1f (a context)", c.Marginal),
				fmt.Sprintf("×%.3f", ratio(c.Marginal, b.Marginal)), notApplicable, notApplicable},
		)
		if c.PSSFileOnce > 0 && b.PSSFileOnce > 0 {
			rows = append(rows,
				row{"worlds: PSS, file pages once, Chromium's contexts (MB)", fmt.Sprintf("%.1f (%d browsers)", b.PSSFileOnce, n),
					fmt.Sprintf("%.1f (%d contexts)", c.PSSFileOnce, n), rangeOf(w.ContextsFileOnce), notApplicable, notApplicable},
				row{"worlds: PSS, file pages once, worlds ÷ contexts (MB)", fmt.Sprintf("%.1f (%d contexts)", c.PSSFileOnce, n),
					fmt.Sprintf("%.1f (%d worlds)", a.PSSFileOnce, n), rangeOf(w.WorldsOverCtxOnce), notApplicable, notApplicable},
			)
		}
	}
	rows = append(rows,
		row{"worlds: PSS without file pages (MB)", fmt.Sprintf("%.1f (%d browsers)", b.PSSNoFile, n), fmt.Sprintf("%.1f (%d worlds)", a.PSSNoFile, n),
			rangeOf(w.RatioNoFile), notApplicable, notApplicable},
		row{"worlds: RSS, for reference (MB)", fmt.Sprintf("%.1f (%d browsers)", b.RSSAll, n), fmt.Sprintf("%.1f (%d worlds)", a.RSSAll, n),
			rangeOf(w.RSSRatio), notApplicable, notApplicable},
		row{"worlds: cdpvisor's own PSS, not counted (MB)", fmt.Sprintf("%.1f (%d cdpvisors)", b.Cdpvisor, n), fmt.Sprintf("%.1f (1 cdpvisor)", a.Cdpvisor),
			notApplicable, notApplicable, notApplicable},
	)
	if rt := w.RoundTrip; rt != nil {
		rows = append(rows,
			row{"worlds: round trip p50 (µs)", f1(rt.Whole.P50) + " (unprefixed)", f1(rt.World.P50) + " (world)",
				fmt.Sprintf("×%.3f", rt.RatioP50), fmt.Sprintf("≤ %.2f×", targetWorldsRTRatio), met(rt.RatioP50 > 0 && rt.RatioP50 <= targetWorldsRTRatio)},
			row{"worlds: round trip p90 (µs)", f1(rt.Whole.P90) + " (unprefixed)", f1(rt.World.P90) + " (world)",
				fmt.Sprintf("×%.3f", rt.RatioP90), notApplicable, notApplicable},
			row{"worlds: round trip p50, paired batches", notApplicable, notApplicable,
				fmt.Sprintf("×%.3f", rt.BatchRatioP50), notApplicable, notApplicable},
		)
	}
	return rows
}

// formatWorldsRounds is every round of the worlds figure, and where the
// memory went, by process kind, in the last round.
func formatWorldsRounds(w *worldsResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "worlds: %d agents × %d pages (%d bytes each), settle %.1f s; PSS in MB summed over each side's browser processes\n",
		w.Agents, w.PagesPerAgent, w.PageBytes, w.SettleMs/1000)
	b.WriteString("(\"once\": with the file-backed pages counted once per side, whatever other processes map them)\n")
	fmt.Fprintf(&b, "%-5s %-8s %-16s", "round", "UTC", "load")
	for _, s := range w.Sides {
		fmt.Fprintf(&b, " %20s", s+" (one/all)")
	}
	ctx := contains(w.Sides, worldsSideContexts)
	fmt.Fprintf(&b, " %9s", "w÷b")
	if ctx {
		fmt.Fprintf(&b, " %9s", "c÷b")
	}
	fmt.Fprintf(&b, " %9s", "w÷b once")
	if ctx {
		fmt.Fprintf(&b, " %9s", "c÷b once")
	}
	fmt.Fprintf(&b, " %9s %s\n", "RT p50", "other Chromium processes")
	for i, r := range w.RoundResults {
		fmt.Fprintf(&b, "%-5d %-8s %-16s", i+1, r.UTC, r.Load)
		var others []string
		for _, s := range w.Sides {
			run := r.Sides[s]
			if run == nil {
				fmt.Fprintf(&b, " %20s", notApplicable)
				continue
			}
			fmt.Fprintf(&b, " %20s", fmt.Sprintf("%.0f / %.0f", mb(run.One.Total.PSSkB), mb(run.All.Total.PSSkB)))
			others = append(others, fmt.Sprintf("%s %d", s, run.All.OtherChromium))
		}
		ratioAt := func(sp spread) string {
			if len(sp.Values) == len(w.RoundResults) {
				return fmt.Sprintf("×%.3f", sp.Values[i])
			}
			return notApplicable
		}
		fmt.Fprintf(&b, " %9s", ratioAt(w.Ratio))
		if ctx {
			fmt.Fprintf(&b, " %9s", ratioAt(w.ContextsRatio))
		}
		fmt.Fprintf(&b, " %9s", ratioAt(w.RatioFileOnce))
		if ctx {
			fmt.Fprintf(&b, " %9s", ratioAt(w.ContextsFileOnce))
		}
		rt := notApplicable
		if r.RTRatioP50 > 0 {
			rt = fmt.Sprintf("×%.3f", r.RTRatioP50)
		}
		fmt.Fprintf(&b, " %9s %s (order %s)\n", rt, strings.Join(others, ", "), strings.Join(r.Order, ", "))
	}
	if len(w.RoundResults) == 0 {
		return b.String()
	}
	last := w.RoundResults[len(w.RoundResults)-1]
	fmt.Fprintf(&b, "PSS by process kind, all agents, round %d (MB; count):\n", len(w.RoundResults))
	kinds := map[string]bool{}
	for _, run := range last.Sides {
		for k := range run.All.ByKind {
			kinds[k] = true
		}
	}
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "%-32s", "kind")
	for _, s := range w.Sides {
		fmt.Fprintf(&b, " %16s", s)
	}
	b.WriteString("\n")
	for _, k := range names {
		fmt.Fprintf(&b, "%-32s", k)
		for _, s := range w.Sides {
			run := last.Sides[s]
			if run == nil {
				fmt.Fprintf(&b, " %16s", notApplicable)
				continue
			}
			ks := run.All.ByKind[k]
			fmt.Fprintf(&b, " %16s", fmt.Sprintf("%.1f; %d", mb(ks.PSSkB), ks.N))
		}
		b.WriteString("\n")
	}
	return b.String()
}
