package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The soak records every world (serve --record, --soak-record), under caps
// small enough for the run to reach them; it samples the coordinator's
// recordings with the rest, and judges the bar: the caps hold,
// frames lost < 1 %, nothing left of a fresh world's recording.

// byteSize is a flag's size: 20MB, 1GB, 500M, 64KiB or bytes; K, M and G
// are 1024s (as cdpvisor's --record-cap reads them).
type byteSize int64

func parseByteSize(s string) (byteSize, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		n      float64
	}{
		{"kib", 1 << 10}, {"kb", 1 << 10}, {"k", 1 << 10},
		{"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20},
		{"gib", 1 << 30}, {"gb", 1 << 30}, {"g", 1 << 30},
		{"b", 1},
	} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n*mult < 1 || n*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size above 0 (e.g. 20MB, 1GB, or bytes; K, M and G are 1024s)", s)
	}
	return byteSize(n * mult), nil
}

func (z *byteSize) Set(s string) error {
	v, err := parseByteSize(s)
	if err == nil {
		*z = v
	}
	return err
}

func (z byteSize) String() string {
	n := int64(z)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n != 0 && n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// recordFlags are serve's flags for the soak's recording (none when off).
func (c config) recordFlags() []string {
	if !c.SoakRecord {
		return nil
	}
	return []string{"--record", "--record-cap", strconv.FormatInt(int64(c.SoakRecordCap), 10),
		"--record-total-cap", strconv.FormatInt(int64(c.SoakRecordTotalCap), 10)}
}

// lostPct is the frames lost in %: those received and not written, and
// the notes dropped (the recorder behind), over the frames received.
func (t recordingStatus) lostPct() float64 {
	if t.FramesReceived <= 0 {
		return 100
	}
	return 100 * float64(t.FramesReceived-t.FramesWritten+t.NotesDropped) / float64(t.FramesReceived)
}

// recordingTotals asks the coordinator; nil: no answer.
func recordingTotals(ctx context.Context, endpoint string) *recordingStatus {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/cdpvisor/recordings", nil)
	if err != nil {
		return nil
	}
	resp, err := sampleClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var t recordingStatus
	if json.NewDecoder(resp.Body).Decode(&t) != nil {
		return nil
	}
	return &t
}

// recordingsDir is where a state dir keeps the recordings (the recorder's
// DirIn): WORLD/SEQ-BOUND.rec segments and a switch file.
func recordingsDir(stateDir string) string { return filepath.Join(stateDir, "recordings") }

// inRecordings: the state dir's relative path rel is in the recordings.
func inRecordings(rel string) bool {
	return rel == "recordings" || strings.HasPrefix(rel, "recordings"+string(filepath.Separator))
}

// soakRecDisk is the recordings dir as the disk has it: the segments'
// sizes (what the caps bound), by world.
type soakRecDisk struct {
	Bytes        int64    `json:"bytes"`         // every world's segments
	Worlds       int      `json:"worlds"`        // worlds with a segment
	LargestWorld int64    `json:"largest_world"` // one world's segments, most
	Files        int      `json:"files"`         // every file, switches too
	Fresh        []string `json:"fresh,omitempty"`
}

// measureRecordings reads the recordings dir. A walk races the writer
// (a segment dropped for the cap here, the next written there): the
// sampled figure may count both; at the end nothing writes.
func measureRecordings(stateDir string) soakRecDisk {
	var d soakRecDisk
	dir := recordingsDir(stateDir)
	worlds, _ := os.ReadDir(dir)
	for _, w := range worlds {
		if !w.IsDir() {
			d.Files++
			continue
		}
		files, _ := os.ReadDir(filepath.Join(dir, w.Name()))
		var size int64
		segs := 0
		for _, f := range files {
			d.Files++
			if !strings.HasSuffix(f.Name(), ".rec") {
				continue
			}
			if info, err := f.Info(); err == nil {
				size += info.Size()
				segs++
			}
		}
		if segs > 0 {
			d.Worlds++
			if isFreshWorld(w.Name()) {
				d.Fresh = append(d.Fresh, w.Name())
			}
		}
		d.Bytes += size
		d.LargestWorld = max(d.LargestWorld, size)
	}
	return d
}

// isFreshWorld: the name has the shape of a world made without one
// (wrap --isolate: agent- and 8 letters or digits): its recording goes
// with the world, unless serve --keep-recordings.
func isFreshWorld(name string) bool {
	rest, ok := strings.CutPrefix(name, "agent-")
	return ok && len(rest) == 8 && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz0123456789") == ""
}

// soakRecording is the recording's figure of the soak.
type soakRecording struct {
	Cap      int64 `json:"cap_bytes"`       // --record-cap
	TotalCap int64 `json:"total_cap_bytes"` // --record-total-cap
	// Samples answered, and those whose bytes were past the total cap.
	Answered   int     `json:"samples_answered"`
	OverCap    int     `json:"samples_over_total_cap"`
	BytesMax   int64   `json:"bytes_max"`
	FirstAtCap float64 `json:"first_at_cap_min"` // first sample within a segment of the total cap; -1: never
	// The recordings' bytes in each 5-minute window after the settle time
	// (MB): a plateau at the cap once reached.
	BytesLevels soakLevels `json:"bytes_mb_levels"`
	// Sampled on disk: the walk may race a drop (information, not a verdict).
	DiskMax      int64 `json:"disk_bytes_max"`
	DiskWorldMax int64 `json:"disk_largest_world_max"`
	WorldsMax    int   `json:"worlds_max"`
	// End: the coordinator's totals after the runs, before the worlds are
	// forgotten; EndDisk the recordings dir then.
	End     recordingStatus `json:"end"`
	EndDisk soakRecDisk     `json:"end_disk"`
	LostPct float64         `json:"frames_lost_pct"`
	// Left: the recordings dir once cdpvisor stopped. Fresh worlds' are
	// leftovers; the named worlds' are kept by design (the soak forgets
	// them first, so none is expected), under the caps.
	Left soakRecDisk `json:"left"`
}

// soakSegment is a segment's size under the caps: the store's 4 MB, held
// to half the smaller cap (actors/recorder/store).
func soakSegment(cap, total int64) int64 { return min(4<<20, min(cap, total)/2) }

// summarizeRecording takes the recording's figure from the samples.
func (r *soakResult) summarizeRecording(settle, duration time.Duration) {
	rec := r.Recording
	if rec == nil {
		return
	}
	// What the samples give, taken anew.
	rec.Answered, rec.OverCap, rec.BytesMax, rec.FirstAtCap = 0, 0, 0, -1
	rec.DiskMax, rec.DiskWorldMax, rec.WorldsMax = 0, 0, 0
	seg := soakSegment(rec.Cap, rec.TotalCap)
	n := max(0, int((duration-settle)/soakWindow)) + 1
	windows := make([][]float64, n)
	for _, x := range r.Samples {
		rec.DiskMax = max(rec.DiskMax, x.RecDisk.Bytes)
		rec.DiskWorldMax = max(rec.DiskWorldMax, x.RecDisk.LargestWorld)
		if x.Rec == nil {
			continue
		}
		rec.Answered++
		rec.BytesMax = max(rec.BytesMax, x.Rec.Bytes)
		rec.WorldsMax = max(rec.WorldsMax, x.Rec.Worlds)
		if x.Rec.Bytes > rec.TotalCap {
			rec.OverCap++
		}
		if rec.FirstAtCap < 0 && x.Rec.Bytes >= rec.TotalCap-seg {
			rec.FirstAtCap = x.T / 60
		}
		if x.T >= settle.Seconds() && x.T < duration.Seconds() {
			w := min(int((time.Duration(x.T*float64(time.Second))-settle)/soakWindow), n-1)
			windows[w] = append(windows[w], float64(x.Rec.Bytes)/(1<<20))
		}
	}
	rec.BytesLevels = levelsOf(windows)
	rec.LostPct = rec.End.lostPct()
}

// soakRecordingRows are the recording's rows of the soak (none when it did
// not record).
func soakRecordingRows(r *soakResult) []row {
	rec := r.Recording
	if rec == nil {
		return []row{{"soak: recording", notApplicable, "off (--soak-record=false)", notApplicable, notApplicable, notApplicable}}
	}
	mbs := func(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
	lv := make([]string, len(rec.BytesLevels.Levels))
	for i, v := range rec.BytesLevels.Levels {
		lv[i] = fmt.Sprintf("%.0f", v)
	}
	atCap := "never"
	if rec.FirstAtCap >= 0 {
		atCap = fmt.Sprintf("%.1f min", rec.FirstAtCap)
	}
	e := rec.End
	freshLeft := len(rec.Left.Fresh)
	return []row{
		{fmt.Sprintf("soak: recordings' bytes, %d samples: most; at the cap from; 5-min levels MB", rec.Answered), notApplicable,
			fmt.Sprintf("%s; %s; %s (%d worlds at most; on disk, sampled: %s, a world's %s)", mbs(rec.BytesMax), atCap, strings.Join(lv, " "),
				rec.WorldsMax, mbs(rec.DiskMax), mbs(rec.DiskWorldMax)), notApplicable,
			fmt.Sprintf("every sample ≤ %s", mbs(rec.TotalCap)), met(rec.Answered > 0 && rec.OverCap == 0)},
		{"soak: recordings dir on disk after the runs: bytes (worlds), a world's most", notApplicable,
			fmt.Sprintf("%s (%d), %s; dropped by the caps %s", mbs(rec.EndDisk.Bytes), rec.EndDisk.Worlds, mbs(rec.EndDisk.LargestWorld), mbs(e.DroppedBytes)), notApplicable,
			fmt.Sprintf("≤ %s, a world ≤ %s", mbs(rec.TotalCap), mbs(rec.Cap)), met(rec.EndDisk.Bytes <= rec.TotalCap && rec.EndDisk.LargestWorld <= rec.Cap)},
		{"soak: frames lost, (received − written + notes dropped) / received", notApplicable,
			fmt.Sprintf("%.3f %% (%d received, %d written, %d notes dropped, %d write failures)", rec.LostPct, e.FramesReceived, e.FramesWritten, e.NotesDropped, e.WriteFailures), notApplicable,
			"< 1 %, frames > 0", met(e.FramesReceived > 0 && rec.LostPct < 1)},
		{"soak: recordings left once stopped: fresh agent-… worlds / named worlds (bytes, a world's most)", notApplicable,
			fmt.Sprintf("%d / %d (%s, %s)", freshLeft, rec.Left.Worlds-freshLeft, mbs(rec.Left.Bytes), mbs(rec.Left.LargestWorld)), notApplicable,
			"0 fresh; named ≤ the caps", met(freshLeft == 0 && rec.Left.Bytes <= rec.TotalCap && rec.Left.LargestWorld <= rec.Cap)},
	}
}

// failedVerdicts are the soak's rows whose verdict is NO: any fails the
// run (cdpbench exits 1).
func (r *soakResult) failedVerdicts() []string {
	var out []string
	for _, x := range soakRows(r) {
		if x.Met == metNo {
			out = append(out, x.Figure+": "+x.Proxy)
		}
	}
	return out
}
