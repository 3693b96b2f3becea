package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSoakRecordSizesReadAsServeReadsThem(t *testing.T) {
	for in, want := range map[string]byteSize{"20MB": 20 << 20, "100M": 100 << 20, "1GB": 1 << 30, "64KiB": 64 << 10, "1500": 1500, "0.5g": 512 << 20} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1MB", "lots", "NaNMB"} {
		if _, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q): no error", in)
		}
	}
	if s := byteSize(20 << 20).String(); s != "20MB" {
		t.Errorf("20 MB says %q", s)
	}
}

// The soak records by default, with caps small enough to reach; serve
// gets them as bytes.
func TestSoakRecordsEveryWorldByDefault(t *testing.T) {
	c, err := parseConfig([]string{"--launch", "--only", "soak"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--record", "--record-cap", "2097152", "--record-total-cap", "25165824"}
	if got := c.recordFlags(); !slices.Equal(got, want) {
		t.Errorf("serve's flags %q, want %q", got, want)
	}
	c, err = parseConfig([]string{"--launch", "--only", "soak", "--soak-record=false"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.recordFlags(); got != nil {
		t.Errorf("--soak-record=false: serve's flags %q", got)
	}
	c, err = parseConfig([]string{"--launch", "--only", "soak", "--soak-record-cap", "5MB", "--soak-record-total-cap", "1G"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if c.SoakRecordCap != 5<<20 || c.SoakRecordTotalCap != 1<<30 {
		t.Errorf("caps %d, %d", c.SoakRecordCap, c.SoakRecordTotalCap)
	}
}

func TestFreshWorldsAreToldFromNamedOnes(t *testing.T) {
	for name, fresh := range map[string]bool{"agent-ab12cd34": true, "agent-AB12CD34": false, "agent-ab12cd3": false, "soak-a02": false, "agent-ab12cd34x": false} {
		if isFreshWorld(name) != fresh {
			t.Errorf("isFreshWorld(%q) = %v", name, !fresh)
		}
	}
}

func TestRecordingsOnDiskAreMeasuredByWorld(t *testing.T) {
	state := t.TempDir()
	write := func(rel string, n int) {
		p := filepath.Join(recordingsDir(state), rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("soak-a02/1-100.rec", 1000)
	write("soak-a02/2-200.rec", 500)
	write("soak-a02/switch", 2)
	write("agent-ab12cd34/1-100.rec", 700)
	write("soak-a03/switch", 3) // a switch, no recording
	d := measureRecordings(state)
	if d.Bytes != 2200 || d.Worlds != 2 || d.LargestWorld != 1500 || d.Files != 5 || !slices.Equal(d.Fresh, []string{"agent-ab12cd34"}) {
		t.Errorf("measured %+v", d)
	}
	if d := measureRecordings(filepath.Join(state, "none")); d.Bytes != 0 || d.Files != 0 {
		t.Errorf("no dir: %+v", d)
	}
}

// The recording's verdicts hold the bar: every sample under the
// total cap, the disk under the caps at the end, frames lost < 1 % of a
// run that recorded something, no fresh world's recording left; and any
// NO fails the run.
func TestSoakRecordingVerdicts(t *testing.T) {
	const mb = 1 << 20
	verdict := func(r *soakResult, label string) string {
		for _, row := range soakRecordingRows(r) {
			if strings.HasPrefix(row.Figure, label) {
				return row.Met
			}
		}
		t.Fatalf("no row %q", label)
		return ""
	}
	clean := func() *soakResult {
		r := &soakResult{Recording: &soakRecording{Cap: 20 * mb, TotalCap: 100 * mb,
			End: recordingStatus{FramesReceived: 10000, FramesWritten: 9990, NotesDropped: 5}}}
		for s := 0; s < 20*60; s += 10 {
			b := min(int64(s)*mb/6, 100*mb) // the cap reached at 10 min
			r.Samples = append(r.Samples, soakSample{T: float64(s), Rec: &recordingStatus{Bytes: b}})
		}
		r.Recording.EndDisk = soakRecDisk{Bytes: 99 * mb, Worlds: 6, LargestWorld: 20 * mb}
		r.summarizeRecording(5*time.Minute, 20*time.Minute)
		return r
	}
	r := clean()
	for _, label := range []string{"soak: recordings' bytes", "soak: recordings dir", "soak: frames lost", "soak: recordings left"} {
		if v := verdict(r, label); v != met(true) {
			t.Errorf("a clean run: %s: %q", label, v)
		}
	}
	if rec := r.Recording; rec.FirstAtCap < 9 || rec.FirstAtCap > 10 || rec.LostPct != 0.15 || rec.Answered != 120 {
		t.Errorf("at the cap from %.1f min, lost %.2f %%, %d answered", rec.FirstAtCap, rec.LostPct, rec.Answered)
	}
	if l := r.Recording.BytesLevels; len(l.Levels) != 3 || l.Levels[1] != 100 || l.Levels[2] != 100 {
		t.Errorf("bytes levels %+v: want 3, the plateau at the cap", l)
	}
	if f := r.failedVerdicts(); slices.ContainsFunc(f, func(s string) bool { return strings.Contains(s, "record") || strings.Contains(s, "frames") }) {
		t.Errorf("a clean recording failed: %q", f)
	}

	r = clean()
	r.Samples[50].Rec.Bytes = 100*mb + 1
	r.summarizeRecording(5*time.Minute, 20*time.Minute)
	if v := verdict(r, "soak: recordings' bytes"); v != met(false) {
		t.Errorf("a sample past the total cap passed: %q", v)
	}
	if f := r.failedVerdicts(); !slices.ContainsFunc(f, func(s string) bool { return strings.HasPrefix(s, "soak: recordings' bytes") }) {
		t.Errorf("a cap passed failed nothing: %q", f)
	}
	r = clean()
	r.Recording.EndDisk.LargestWorld = 20*mb + 1
	if v := verdict(r, "soak: recordings dir"); v != met(false) {
		t.Errorf("a world past its cap on disk passed: %q", v)
	}
	r = clean()
	r.Recording.End.NotesDropped = 100 // 10 + 100 of 10000: 1.1 %
	r.summarizeRecording(5*time.Minute, 20*time.Minute)
	if v := verdict(r, "soak: frames lost"); v != met(false) {
		t.Errorf("1.1 %% lost passed: %q", v)
	}
	r = clean()
	r.Recording.End = recordingStatus{}
	r.summarizeRecording(5*time.Minute, 20*time.Minute)
	if v := verdict(r, "soak: frames lost"); v != met(false) {
		t.Errorf("a run that recorded nothing passed: %q", v)
	}
	r = clean()
	r.Recording.Left = soakRecDisk{Bytes: 5 * mb, Worlds: 2, LargestWorld: 3 * mb, Fresh: []string{"agent-ab12cd34"}}
	if v := verdict(r, "soak: recordings left"); v != met(false) {
		t.Errorf("a fresh world's recording left passed: %q", v)
	}
	r.Recording.Left.Fresh, r.Recording.Left.Worlds = nil, 1
	if v := verdict(r, "soak: recordings left"); v != met(true) {
		t.Errorf("a named world's recording, under the caps, failed: %q", v)
	}
	r = clean()
	for i := range r.Samples {
		r.Samples[i].Rec = nil
	}
	r.summarizeRecording(5*time.Minute, 20*time.Minute)
	if v := verdict(r, "soak: recordings' bytes"); v != met(false) {
		t.Errorf("no sample answered passed: %q", v)
	}
	if rows := soakRecordingRows(&soakResult{}); len(rows) != 1 || rows[0].Met != notApplicable {
		t.Errorf("not recording: %+v", rows)
	}
}

// A run too short for a level is not judged on levels (10 minutes leave
// none after the settle time and the idle stop's window).
func TestSoakLevelsOfAShortRunAreNotJudged(t *testing.T) {
	r := &soakResult{}
	for _, row := range soakRows(r) {
		if strings.Contains(row.Figure, "5-min levels") && row.Met != levelsTooShort {
			t.Errorf("%s: %q", row.Figure, row.Met)
		}
	}
}

// The samples' CSV has as many fields in each line as in its head, with
// the recordings or without an answer.
func TestSoakCSVHasTheRecordings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "soak.csv")
	r := &soakResult{Samples: []soakSample{{T: 60, Rec: &recordingStatus{Bytes: 3 << 20, Worlds: 4, FramesReceived: 9}, RecDisk: soakRecDisk{Bytes: 2 << 20}}, {T: 70}}}
	if err := r.writeFiles(path, ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], ",")
	if head[15] != "rec_mb" || head[23] != "rec_disk_mb" { // soak.gp's columns 16 and 24
		t.Errorf("head %q", head)
	}
	for _, l := range lines[1:] {
		if n := len(strings.Split(l, ",")); n != len(head) {
			t.Errorf("%d fields, head %d: %q", n, len(head), l)
		}
	}
	if f := strings.Split(lines[1], ","); f[15] != "3.00" || f[16] != "4" || f[23] != "2.00" {
		t.Errorf("line %q", lines[1])
	}
}
