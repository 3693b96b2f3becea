package main

import "fmt"

// recordingRows are the figure's rows: "direct" is the plain world (or
// not recorded), "cdpvisor" the recorded one.
func recordingRows(r *recordingResult) []row {
	tp, tf, tc := r.Trips["plain"], r.Trips["filmed"], r.Trips["cast"]
	lp, lf, lc := r.Loads["plain"], r.Loads["filmed"], r.Loads["cast"]
	ctp, ctf, clp, clf := r.Control.Trips["plain"], r.Control.Trips["filmed"], r.Control.Loads["plain"], r.Control.Loads["filmed"]
	x := func(v float64) string { return fmt.Sprintf("×%.3f", v) }
	rows := []row{
		{fmt.Sprintf("recorded world: page round trip p50 (ms, %d each)", tf.N), f2(tp.P50) + " (plain)", f2(tf.P50), x(r.TripRatio.P50), "≤ 1.10×", met(tf.N > 0 && r.TripRatio.P50 <= targetRecordingTripRatio)},
		{"recorded world: page round trip p90 (ms)", f2(tp.P90) + " (plain)", f2(tf.P90), x(r.TripRatio.P90), notApplicable, notApplicable},
		{fmt.Sprintf("recorded world: page load p50 (ms, %d each)", lf.N), f1(lp.P50) + " (plain)", f1(lf.P50), x(r.LoadRatio.P50), "≤ 1.10×", met(lf.N > 0 && r.LoadRatio.P50 <= targetRecordingLoadRatio)},
		{"recorded world: page load p90 (ms)", f1(lp.P90) + " (plain)", f1(lf.P90), x(r.LoadRatio.P90), notApplicable, notApplicable},
	}
	if tc.N > 0 {
		rows = append(rows,
			row{"bench's own screencast, no recorder: round trip p50 / p90 (ms)", f2(tp.P50) + " / " + f2(tp.P90) + " (plain)", f2(tc.P50) + " / " + f2(tc.P90), x(r.CastTripRatio.P50) + " / " + x(r.CastTripRatio.P90), notApplicable, notApplicable},
			row{"bench's own screencast, no recorder: page load p50 / p90 (ms)", f1(lp.P50) + " / " + f1(lp.P90) + " (plain)", f1(lc.P50) + " / " + f1(lc.P90), x(r.CastLoadRatio.P50) + " / " + x(r.CastLoadRatio.P90), notApplicable, notApplicable},
		)
	}
	rows = append(rows,
		row{fmt.Sprintf("control, none recorded: round trip p50 (ms, %d each)", ctf.N), f2(ctp.P50) + " (plain)", f2(ctf.P50) + " (filmed, off)", x(r.ControlTripRatio.P50), notApplicable, notApplicable},
		row{fmt.Sprintf("control, none recorded: page load p50 (ms, %d each)", clf.N), f1(clp.P50) + " (plain)", f1(clf.P50) + " (filmed, off)", x(r.ControlLoadRatio.P50), notApplicable, notApplicable},
	)
	off, on := r.Median["off"], r.Median["on"]
	rows = append(rows,
		row{fmt.Sprintf("coordinator CPU, 1 busy world recorded (%% of a core, median of %d × %.0f s)", len(r.Windows["on"]), r.WindowS), f1(off.CPU) + " (off)", f1(on.CPU), fmt.Sprintf("%+.1f", r.CPUPerWorld), notApplicable, notApplicable},
		row{"coordinator RSS, 1 busy world recorded (MB)", f1(off.RSS/1024) + " (off)", f1(on.RSS / 1024), fmt.Sprintf("%+.1f", r.RSSPerWorldMB), notApplicable, notApplicable},
		row{"browser CPU, 1 busy world recorded (% of a core)", f1(off.BrowserCPU) + " (off)", f1(on.BrowserCPU), fmt.Sprintf("%+.1f", r.BrowserCPUPerWorld), notApplicable, notApplicable},
	)
	rows = append(rows, row{"the page's own animation frames a second (median)", f0(off.PageFPS) + " (off)", f0(on.PageFPS), fmt.Sprintf("%+.0f", on.PageFPS-off.PageFPS), notApplicable, notApplicable})
	if g, ok := off.ByKind["gpu-process"]; ok {
		rows = append(rows, row{"browser's GPU process CPU, 1 busy world recorded (%)", f1(g) + " (off)", f1(on.ByKind["gpu-process"]), fmt.Sprintf("%+.1f", on.ByKind["gpu-process"]-g), notApplicable, notApplicable})
	}
	if c, ok := r.Median["cast"]; ok {
		rows = append(rows,
			row{"coordinator CPU, the page screencast by the bench, not recorded (%)", f1(off.CPU) + " (off)", f1(c.CPU), fmt.Sprintf("%+.1f", c.CPU-off.CPU), notApplicable, notApplicable},
			row{"browser CPU, the page screencast by the bench, not recorded (%)", f1(off.BrowserCPU) + " (off)", f1(c.BrowserCPU), fmt.Sprintf("%+.1f", c.BrowserCPU-off.BrowserCPU), notApplicable, notApplicable},
		)
	}
	if offN, ok := r.Median[fmt.Sprintf("off%d", r.Busy)]; ok {
		onN := r.Median[fmt.Sprintf("on%d", r.Busy)]
		rows = append(rows,
			row{fmt.Sprintf("coordinator CPU, %d busy worlds recorded (%%; difference per world)", r.Busy), f1(offN.CPU) + " (off)", f1(onN.CPU), fmt.Sprintf("%+.1f", r.CPUPerWorldN), notApplicable, notApplicable},
			row{fmt.Sprintf("coordinator RSS, %d busy worlds recorded (MB; difference per world)", r.Busy), f1(offN.RSS/1024) + " (off)", f1(onN.RSS / 1024), fmt.Sprintf("%+.1f", r.RSSPerWorldNMB), notApplicable, notApplicable},
			row{fmt.Sprintf("browser CPU, %d busy worlds recorded (%%; difference per world)", r.Busy), f1(offN.BrowserCPU) + " (off)", f1(onN.BrowserCPU), fmt.Sprintf("%+.1f", r.BrowserCPUPerWorldN), notApplicable, notApplicable},
			row{fmt.Sprintf("the page's own animation frames a second, %d busy worlds", r.Busy), f0(offN.PageFPS) + " (off)", f0(onN.PageFPS), fmt.Sprintf("%+.0f", onN.PageFPS-offN.PageFPS), notApplicable, notApplicable},
		)
		if g, ok := offN.ByKind["gpu-process"]; ok {
			rows = append(rows, row{fmt.Sprintf("browser's GPU process CPU, %d busy worlds recorded (%%)", r.Busy), f1(g) + " (off)", f1(onN.ByKind["gpu-process"]), fmt.Sprintf("%+.1f", onN.ByKind["gpu-process"]-g), notApplicable, notApplicable})
		}
	}
	size := func(key, words string) {
		sz, ok := r.Sizes[key]
		if !ok {
			return
		}
		rows = append(rows, row{fmt.Sprintf("recording size, %s (MB a minute a world; %.0f s)", words, sz.Seconds), notApplicable, f2(sz.MBPerMin),
			fmt.Sprintf("%.2f frames/s, %.1f kB a frame", sz.FPS, sz.FrameKB), "≤ 5 MB/min", met(sz.MBPerMin > 0 && sz.MBPerMin <= targetRecordingMBPerMin)})
	}
	size("busy", "the bench's busy page, the yardstick")
	size(fmt.Sprintf("busy%d", r.Busy), fmt.Sprintf("%d busy worlds recorded", r.Busy))
	size("noise", "the worst page (canvas of noise)")
	if y := yardstickSpan(r.Spans); r.Cast.Frames > 0 && r.Cast.MS > 0 && y.MS > 0 && y.FramesWritten > 0 {
		rows = append(rows, row{"frames in the yardstick: bench's own screencast / recorder (frames/s, kB a frame)",
			fmt.Sprintf("%.2f, %.1f kB (bench's)", r.Cast.Frames/(r.Cast.MS/1000), r.Cast.Bytes/1e3/r.Cast.Frames),
			fmt.Sprintf("%.2f, %.1f kB", float64(y.FramesWritten)/(y.MS/1000), float64(y.Bytes)/1e3/float64(y.FramesWritten)), notApplicable, notApplicable, notApplicable})
	}
	if g := r.Status.FrameGaps; len(g) > 0 {
		rows = append(rows, row{"gaps between frames < 300 ms / < 800 ms / 0.8–1.2 s / > 1.2 s / backwards", notApplicable,
			fmt.Sprintf("%d / %d / %d / %d / %d", g["under_300ms"], g["under_800ms"], g["over_800ms"], g["over_1200ms"], g["backwards"]), notApplicable, notApplicable, notApplicable})
	}
	lost := r.framesLost()
	rows = append(rows, row{"frames received / written (all recordings)", fmt.Sprint(r.Totals.FramesReceived), fmt.Sprint(r.Totals.FramesWritten),
		fmt.Sprint(r.Totals.FramesReceived - r.Totals.FramesWritten), "0 lost, > 0 received", met(lost == nil)})
	return rows
}

// yardstickSpan is the recording's span during the yardstick.
func yardstickSpan(spans []recordedSpan) recordedSpan {
	for _, s := range spans {
		if s.Phase == "yardstick" {
			return s
		}
	}
	return recordedSpan{}
}

func f2(v float64) string { return fmt.Sprintf("%.2f", v) }
