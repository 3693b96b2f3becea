package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The soak's cdpvisor serves its Go runtime's profiles (--debug-pprof): a
// heap profile at the settle time and one a minute before the end (after
// the runs if the run was too short for it), kept beside the samples, name
// what its heap gained between the two (heapGrowth).

// heapBeforeEnd is when the second profile is taken: before the end, the
// agents still at work.
const heapBeforeEnd = time.Minute

// heapProfile fetches cdpvisor's heap profile, garbage collected first.
func (s *soak) heapProfile(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cv.endpoint+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cdpvisor's heap profile: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, body)
	}
	if err != nil {
		return nil, fmt.Errorf("cdpvisor's heap profile: %w", err)
	}
	return body, nil
}

// heapOrSay is heapProfile, nil with its error in the progress log.
func (s *soak) heapOrSay(ctx context.Context) []byte {
	heap, err := s.heapProfile(ctx)
	if err != nil {
		progress("soak: %v", err)
		return nil
	}
	return heap
}

// heapFiles are where the two profiles go: beside the samples' CSV (its
// name without .csv, then -heap-settle.pb.gz, -heap-end.pb.gz); "" when
// the samples are not kept.
func heapFiles(csvPath, pngPath string) (settle, end string) {
	base := samplesPath(csvPath, pngPath)
	if base == "" {
		return "", ""
	}
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return base + "-heap-settle.pb.gz", base + "-heap-end.pb.gz"
}

// heapGrowth is pprof's top of what the heap in use gained from the settle
// profile to the end one: its first lines (the totals and the ten
// biggest), as the report shows them.
func heapGrowth(ctx context.Context, settle, end string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=10", "-inuse_space", "-base", settle, end)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go tool pprof -base: %w", err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(l, "File:") || strings.HasPrefix(l, "Build ID:") || strings.HasPrefix(l, "Type:") || strings.HasPrefix(l, "Time:") {
			continue
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// writeHeap keeps a profile at path.
func writeHeap(path string, profile []byte) error {
	if err := os.WriteFile(path, profile, 0o644); err != nil {
		return fmt.Errorf("keep the heap profile: %w", err)
	}
	return nil
}

// keepHeaps keeps the settle and end profiles beside the samples (the end
// one taken now, the runs over, when the sampler had none) and says what
// grew between them.
func (s *soak) keepHeaps(ctx context.Context, csvPath, pngPath string) ([]string, error) {
	settlePath, endPath := heapFiles(csvPath, pngPath)
	if settlePath == "" {
		return nil, nil
	}
	if s.settleHeap == nil {
		return nil, fmt.Errorf("no heap profile at the settle time (%s): the run was shorter", s.cfg.SoakSettle)
	}
	end := s.endHeap
	if end == nil {
		var err error
		if end, err = s.heapProfile(ctx); err != nil {
			return nil, err
		}
	}
	if err := writeHeap(settlePath, s.settleHeap); err != nil {
		return nil, err
	}
	if err := writeHeap(endPath, end); err != nil {
		return nil, err
	}
	growth, err := heapGrowth(ctx, settlePath, endPath)
	if err != nil {
		return nil, err
	}
	progress("soak: what cdpvisor's heap in use gained from the settle time to the end (%s, %s):\n  %s",
		filepath.Base(settlePath), filepath.Base(endPath), strings.Join(growth, "\n  "))
	return growth, nil
}
