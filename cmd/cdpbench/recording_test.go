package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A run as bench_recording.mjs prints it, shortened.
const recordingSample = `{"ok":true,
 "trips":{"plain":[1,2,3,4],"filmed":[1,2,3,5],"cast":[2,2,3,4]},
 "loads":{"plain":[100,110],"filmed":[105,130],"cast":[100,100]},
 "control":{"trips":{"plain":[1,2],"filmed":[1,2]},"loads":{"plain":[100],"filmed":[100]}},
 "cast":{"frames":12,"bytes":600000,"ms":10000},
 "windows":{"off":[{"cpu_pct":1,"browser_cpu_pct":40,"rss_kb":20480},{"cpu_pct":2,"browser_cpu_pct":42,"rss_kb":20480},{"cpu_pct":9,"browser_cpu_pct":41,"rss_kb":20480}],
  "on":[{"cpu_pct":3,"browser_cpu_pct":100,"rss_kb":22528}],
  "cast":[{"cpu_pct":1,"browser_cpu_pct":95,"rss_kb":20480}],
  "off4":[{"cpu_pct":2,"browser_cpu_pct":80,"rss_kb":20480}],
  "on4":[{"cpu_pct":6,"browser_cpu_pct":120,"rss_kb":24576}]},
 "recorded":[{"worlds":1,"phase":"yardstick","ms":30000,"bytes":2000000,"frames_received":30,"frames_written":30},
  {"worlds":1,"phase":"on","ms":30000,"bytes":2000000,"frames_received":30,"frames_written":30},
  {"worlds":4,"phase":"on4","ms":60000,"bytes":16000000,"frames_received":240,"frames_written":240},
  {"worlds":1,"phase":"noise","ms":60000,"bytes":9000000,"frames_received":66,"frames_written":66}],
 "status":{"recorded":false,"bytes":13000000,"frames_received":126,"frames_written":126},
 "totals":{"bytes":29000000,"frames_received":366,"frames_written":366}}`

func TestSummarizeRecording(t *testing.T) {
	var out recordingOut
	if err := json.Unmarshal([]byte(recordingSample), &out); err != nil {
		t.Fatal(err)
	}
	r := summarizeRecording(out, 4)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("round trip p50 ratio", r.TripRatio.P50, 1)     // nearest rank: 2 and 2
	near("round trip p90 ratio", r.TripRatio.P90, 5.0/4) // 5 over 4
	near("load p50 ratio", r.LoadRatio.P50, 1.05)
	near("cast load p50 ratio", r.CastLoadRatio.P50, 1)
	near("coordinator CPU a world", r.CPUPerWorld, 3-2) // the median off window is 2
	near("browser CPU a world", r.BrowserCPUPerWorld, 100-41)
	near("RSS a world", r.RSSPerWorldMB, 2)
	near("coordinator CPU a world of 4", r.CPUPerWorldN, 1)
	near("RSS a world of 4", r.RSSPerWorldNMB, 1)
	busy := r.Sizes["busy"] // the yardstick's span
	near("busy seconds", busy.Seconds, 30)
	near("busy MB a minute", busy.MBPerMin, 4)
	near("busy frames a second", busy.FPS, 1)
	near("busy frame kB", busy.FrameKB, 2e6/1e3/30)
	near("windows' seconds", r.Sizes["busy-windows"].Seconds, 30)
	near("4 worlds: MB a minute a world", r.Sizes["busy4"].MBPerMin, 4)
	near("4 worlds: frames a second a world", r.Sizes["busy4"].FPS, 1)
	near("noise MB a minute", r.Sizes["noise"].MBPerMin, 9)
	if err := r.framesLost(); err != nil {
		t.Errorf("framesLost: %v", err)
	}
	verdicts := map[string]string{}
	for _, row := range recordingRows(r) {
		if row.Target != notApplicable {
			verdicts[row.Figure[:strings.IndexAny(row.Figure, "(")]] = row.Met
		}
	}
	want := map[string]string{
		"recorded world: page round trip p50 ":                  metYes,
		"recorded world: page load p50 ":                        metYes,
		"recording size, the bench's busy page, the yardstick ": metYes,
		"recording size, 4 busy worlds recorded ":               metYes,
		"recording size, the worst page ":                       metNo,
		"frames received / written ":                            metYes,
	}
	for k, v := range want {
		if verdicts[k] != v {
			t.Errorf("%q: met %q, want %q (all: %v)", k, verdicts[k], v, verdicts)
		}
	}
}

func TestRecordingFramesLost(t *testing.T) {
	for _, c := range []struct {
		name          string
		status, total recordingStatus
		bad           string
	}{
		{"fine", recordingStatus{FramesReceived: 5, FramesWritten: 5}, recordingStatus{FramesReceived: 9, FramesWritten: 9}, ""},
		{"none received", recordingStatus{}, recordingStatus{FramesReceived: 9, FramesWritten: 9}, "received no frame"},
		{"lost in the world", recordingStatus{FramesReceived: 5, FramesWritten: 4}, recordingStatus{FramesReceived: 9, FramesWritten: 9}, "received 5 frames and wrote 4"},
		{"lost elsewhere", recordingStatus{FramesReceived: 5, FramesWritten: 5}, recordingStatus{FramesReceived: 9, FramesWritten: 8}, "every recording received 9"},
		{"write failures", recordingStatus{FramesReceived: 5, FramesWritten: 5, WriteFailures: 1}, recordingStatus{FramesReceived: 9, FramesWritten: 9}, "write failures"},
	} {
		r := &recordingResult{Status: c.status, Totals: c.total}
		err := r.framesLost()
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%s: %v, want one saying %q", c.name, err, c.bad)
		}
	}
	// The row says NO for a run whose frames were lost.
	r := &recordingResult{Status: recordingStatus{FramesReceived: 5, FramesWritten: 4}, Totals: recordingStatus{FramesReceived: 5, FramesWritten: 4}}
	rows := recordingRows(r)
	if last := rows[len(rows)-1]; !strings.HasPrefix(last.Figure, "frames received") || last.Met != metNo || last.Diff != "1" {
		t.Errorf("frames row %+v", last)
	}
}
