package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// soakSample is the coordinator and what it owns at one instant.
type soakSample struct {
	T              float64 `json:"t_s"` // since the start
	RSSMB          float64 `json:"rss_mb"`
	Goroutines     int     `json:"goroutines"`
	HeapMB         float64 `json:"heap_inuse_mb"`
	FDs            int     `json:"fds"`
	Threads        int     `json:"threads"`
	StateFiles     int     `json:"state_files"`
	StateKB        int64   `json:"state_kb"`
	StateLargestKB int64   `json:"state_largest_kb"` // the state dir's largest file
	BrowserProcs   int     `json:"browser_processes"`
	Worlds         int     `json:"worlds"`
	ChromiumTmp    int     `json:"chromium_tmp_dirs"` // org.chromium.Chromium.* in cdpvisor's $TMPDIR
	ActiveRuns     int64   `json:"active_runs"`
	Loops          int64   `json:"loops"`
	Failures       int64   `json:"failures"`
	// The recordings (--soak-record): GET /cdpvisor/recordings (nil: no
	// answer, or not recording) and the recordings dir on disk. The state
	// dir's figures above leave the recordings out.
	Rec     *recordingStatus `json:"recordings,omitempty"`
	RecDisk soakRecDisk      `json:"recordings_disk,omitzero"`
}

// sampleEvery samples until ctx ends.
func (s *soak) sampleEvery(ctx context.Context, every time.Duration) []soakSample {
	var out []soakSample
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		out = append(out, s.sample(ctx))
		if s.settleHeap == nil && s.elapsed() >= s.cfg.SoakSettle {
			s.settleHeap = s.heapOrSay(ctx)
		}
		// The second profile comes while the agents still work: after the
		// runs the relays' buffers are back in their pools and it shows little.
		if s.endHeap == nil && s.settleHeap != nil && s.elapsed() >= s.cfg.SoakDuration-heapBeforeEnd {
			s.endHeap = s.heapOrSay(ctx)
		}
		select {
		case <-ctx.Done():
			return out
		case <-tick.C:
		}
	}
}

func (s *soak) sample(ctx context.Context) soakSample {
	x := soakSample{T: s.elapsed().Seconds(), ActiveRuns: s.active.Load(), Loops: s.loops.Load(), Failures: s.fails.Load()}
	if m, err := readProcMem(s.cv.pid); err == nil {
		x.RSSMB = mb(m.RSSkB)
	}
	x.Threads, x.FDs = procCounts(s.cv.pid)
	metrics := scrapeMetrics(ctx, s.cv.endpoint+"/metrics", "go_goroutines", "go_memstats_heap_inuse_bytes")
	x.Goroutines = int(metrics["go_goroutines"])
	x.HeapMB = metrics["go_memstats_heap_inuse_bytes"] / (1 << 20)
	_ = filepath.WalkDir(s.cv.stateDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p == recordingsDir(s.cv.stateDir) {
			return filepath.SkipDir // sampled apart, bounded by their own caps
		}
		if err == nil && !d.IsDir() {
			x.StateFiles++
			if info, err := d.Info(); err == nil {
				x.StateKB += info.Size() / 1024
				x.StateLargestKB = max(x.StateLargestKB, info.Size()/1024)
			}
		}
		return nil
	})
	// The browser's group: Chromium spawns it in a group of its own.
	if pid := s.browserPid(); pid > 0 {
		x.BrowserProcs = groupSize(pid)
	}
	x.Worlds = countWorlds(ctx, s.cv.endpoint)
	tmp, _ := filepath.Glob(filepath.Join(s.root, "org.chromium.Chromium.*"))
	x.ChromiumTmp = len(tmp)
	if s.cfg.SoakRecord {
		x.Rec = recordingTotals(ctx, s.cv.endpoint)
		x.RecDisk = measureRecordings(s.cv.stateDir)
	}
	return x
}

var sampleClient = &http.Client{Timeout: 5 * time.Second}

// scrapeMetrics reads the named unlabelled series of a Prometheus text page.
func scrapeMetrics(ctx context.Context, url string, names ...string) map[string]float64 {
	out := map[string]float64{}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return out
	}
	resp, err := sampleClient.Do(req)
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || !contains(names, name) {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
			out[name] = v
		}
	}
	return out
}

// countWorlds is how many worlds the coordinator has open (-1: no answer).
func countWorlds(ctx context.Context, endpoint string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/cdpvisor/worlds", nil)
	if err != nil {
		return -1
	}
	resp, err := sampleClient.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var worlds []struct {
		Open bool `json:"open"`
	}
	if json.NewDecoder(resp.Body).Decode(&worlds) != nil {
		return -1
	}
	n := 0
	for _, w := range worlds {
		if w.Open {
			n++
		}
	}
	return n
}
