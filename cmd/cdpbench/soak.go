package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// soak is one run of the soak figure (--only soak): agents of every kind
// looping work in worlds of one cdpvisor for --soak-duration, faults on a
// schedule, the coordinator sampled every --soak-sample.
type soak struct {
	cfg      config
	root     string // the run's temp dir: cdpvisor's and its browsers' $TMPDIR
	bin      string
	clients  string // testdata/clients
	chromedp string // the chromedp agent's binary
	cv       *cdpvisorProc
	site     *soakSite
	agents   []*soakAgent
	start    time.Time

	loops, fails atomic.Int64 // loops done and failed so far, every agent's
	active       atomic.Int64 // runs in progress

	settleHeap []byte // cdpvisor's heap profile at the settle time (the sampler's)
	endHeap    []byte // and a minute before the end, the agents still at work

	mu     sync.Mutex
	ending bool          // the duration is over: no new run
	paused chan struct{} // non-nil while runs wait (the idle stop), closed to resume
}

// nextRun waits while runs are paused and says whether another run starts.
func (s *soak) nextRun(ctx context.Context) bool {
	for {
		s.mu.Lock()
		ending, paused := s.ending, s.paused
		if !ending && paused == nil {
			s.active.Add(1)
		}
		s.mu.Unlock()
		switch {
		case ending || ctx.Err() != nil:
			return false
		case paused == nil:
			return true
		}
		select {
		case <-paused:
		case <-ctx.Done():
			return false
		}
	}
}

func (s *soak) runEnded() { s.active.Add(-1) }

// pause stops new runs; resume lets them start again.
func (s *soak) pause() {
	s.mu.Lock()
	if s.paused == nil {
		s.paused = make(chan struct{})
	}
	s.mu.Unlock()
}

func (s *soak) resume() {
	s.mu.Lock()
	if s.paused != nil {
		close(s.paused)
		s.paused = nil
	}
	s.mu.Unlock()
}

func (s *soak) end() {
	s.mu.Lock()
	s.ending = true
	s.mu.Unlock()
	s.resume()
}

func (s *soak) elapsed() time.Duration { return time.Since(s.start) }

// soakStagger is the time between two agents' first runs.
const soakStagger = 3 * time.Second

// measureSoak runs the soak figure.
func (b *bench) measureSoak(ctx context.Context) (*soakResult, error) {
	clients, err := clientsDir()
	if err != nil {
		return nil, err
	}
	s := &soak{cfg: b.cfg, bin: b.bin, clients: clients}
	if s.root, err = os.MkdirTemp(b.root, "k"); err != nil {
		return nil, err
	}
	if s.chromedp, err = buildChromedpAgent(ctx, s.root); err != nil {
		return nil, err
	}
	if s.site, err = startSoakSite(); err != nil {
		return nil, err
	}
	defer s.site.close()
	dl := filepath.Join(s.root, "dl")
	stopCv := func() {}
	s.cv, err = startCdpvisorWith(ctx, b.bin, b.browser, s.root, b.cfg.CvLogLevel, b.cvLog, b.cfg.recordFlags(),
		"CDPVISOR_IDLE_STOP="+b.cfg.SoakIdleStop.String(), "CDPVISOR_DOWNLOAD_DIR="+dl, "CDPVISOR_DEBUG_PPROF=true")
	if err != nil {
		return nil, err
	}
	stopCv = b.cl.add(s.cv.stop)
	s.agents = newSoakAgents(b.cfg.SoakAgents)
	res := &soakResult{Duration: b.cfg.SoakDuration.String(), Agents: len(s.agents), Loops: b.cfg.SoakLoops}
	recording := "not recording"
	if b.cfg.SoakRecord {
		res.Recording = &soakRecording{Cap: int64(b.cfg.SoakRecordCap), TotalCap: int64(b.cfg.SoakRecordTotalCap)}
		recording = fmt.Sprintf("recording every world (caps %s a world, %s in all)", b.cfg.SoakRecordCap, b.cfg.SoakRecordTotalCap)
	}
	progress("soak: %d agents for %s, cdpvisor %d at %s, %s", len(s.agents), b.cfg.SoakDuration, s.cv.pid, s.cv.endpoint, recording)

	runCtx, cancelRuns := context.WithCancel(ctx) // ends what is still running after the grace
	defer cancelRuns()
	s.start = time.Now()
	var agents, watchers sync.WaitGroup
	for i, a := range s.agents {
		agents.Add(1)
		go func() { // owned: ends when s.end and its run finished, or runCtx ends
			defer agents.Done()
			a.run(runCtx, s, time.Duration(i)*soakStagger)
		}()
	}
	faultCtx, stopFaults := context.WithCancel(ctx)
	sampleCtx, stopSamples := context.WithCancel(ctx)
	var faults []soakFault
	var samples []soakSample
	var idle soakIdle
	var faulting sync.WaitGroup
	faulting.Add(1)
	go func() { // owned: stopFaults
		defer faulting.Done()
		faults, idle = s.schedule(faultCtx)
	}()
	watchers.Add(1)
	go func() { // owned: stopSamples
		defer watchers.Done()
		samples = s.sampleEvery(sampleCtx, b.cfg.SoakSample)
	}()

	_ = sleepCtx(ctx, b.cfg.SoakDuration)
	// No fault after the duration: the runs in progress finish their loops.
	stopFaults()
	faulting.Wait()
	s.end()
	progress("soak: %s over; waiting for the runs in progress to finish their loops", b.cfg.SoakDuration)
	finished := make(chan struct{})
	go func() { // owned: ends with the agents, which runCtx bounds
		agents.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(b.cfg.SoakRunLimit):
		res.Problems = append(res.Problems, "runs still in progress "+b.cfg.SoakRunLimit.String()+" after the end: killed")
		cancelRuns()
		<-finished
	case <-ctx.Done():
		cancelRuns()
		<-finished
	}
	stopSamples()
	watchers.Wait()
	res.Start, res.Faults, res.Idle, res.Samples = s.start, faults, idle, samples
	for _, a := range s.agents {
		res.PerAgent = append(res.PerAgent, a.stats)
	}
	res.classify()
	res.HeapGrowth, err = s.keepHeaps(ctx, b.cfg.SoakCSV, b.cfg.SoakPNG)
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	if rec := res.Recording; rec != nil {
		// The runs are over: what the recorder counted, and kept on disk,
		// before the named worlds are forgotten.
		if t := recordingTotals(ctx, s.cv.endpoint); t != nil {
			rec.End = *t
		} else {
			res.Problems = append(res.Problems, "GET /cdpvisor/recordings: no answer after the runs")
		}
		rec.EndDisk = measureRecordings(s.cv.stateDir)
	}
	res.Problems = append(res.Problems, s.forgetWorlds()...)
	res.Leftovers, res.Journals = s.stopAndCheck(stopCv, dl, res.Recording)
	res.summarize(s.cfg.SoakSettle, s.cfg.SoakDuration)
	res.summarizeRecording(s.cfg.SoakSettle, s.cfg.SoakDuration)
	if err := res.writeFiles(b.cfg.SoakCSV, b.cfg.SoakPNG); err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	return res, ctx.Err()
}

// stopAndCheck stops cdpvisor and lists what it left: processes of the
// run (its helpers, ffmpeg, anything with the run's $TMPDIR), Chromium's
// temp dirs in its $TMPDIR, launch dirs, files in its state dir but the
// worlds' journals and the named worlds' recordings (counted apart, into
// rec when recording), partial downloads.
func (s *soak) stopAndCheck(stopCv func(), dl string, rec *soakRecording) (left []string, journals soakJournals) {
	_ = terminate(s.cv.pid)
	if !s.cv.waitExit(15 * time.Second) {
		left = append(left, "cdpvisor ignored SIGTERM for 15 s")
	}
	time.Sleep(2 * time.Second) // its guard's last clean-up
	seen := map[int]bool{}
	for _, pid := range processesMatching(s.root) {
		seen[pid] = true
		left = append(left, fmt.Sprintf("process %d: %s", pid, commandOf(pid)))
	}
	for _, pid := range processesWithEnvPrefix("CDPVISOR_LAUNCH_DIR=" + s.root) {
		seen[pid] = true
		left = append(left, fmt.Sprintf("browser process %d", pid))
	}
	// Whatever cdpvisor started (ffmpeg for a video, a browser's helper)
	// inherits the $TMPDIR the bench gave it.
	for _, pid := range processesWithEnv("TMPDIR=" + s.root) {
		if !seen[pid] {
			left = append(left, fmt.Sprintf("helper process %d: %s", pid, commandOf(pid)))
		}
	}
	for _, pattern := range []string{"org.chromium.Chromium.*", "cdpv-*"} {
		m, _ := filepath.Glob(filepath.Join(s.root, pattern))
		for _, p := range m {
			left = append(left, "left in cdpvisor's TMPDIR: "+filepath.Base(p))
		}
	}
	if rec != nil {
		rec.Left = measureRecordings(s.cv.stateDir)
	}
	files, _ := dirFiles(s.cv.stateDir)
	for _, f := range files {
		if inRecordings(f) {
			// A fresh world's recording goes with the world; a named
			// world's is kept by design (the soak forgot them), under the
			// caps: counted apart (rec.Left).
			parts := strings.Split(f, string(filepath.Separator))
			if len(parts) == 3 && !isFreshWorld(parts[1]) && rec != nil {
				continue
			}
			left = append(left, "recordings: "+f)
			continue
		}
		if strings.HasPrefix(f, "journal"+string(filepath.Separator)) {
			// The worlds' journals are kept by design (a record of what
			// each did), each under its cap: counted, not left.
			if info, err := os.Stat(filepath.Join(s.cv.stateDir, f)); err == nil {
				journals.Files++
				journals.LargestKB = max(journals.LargestKB, info.Size()>>10)
			}
			continue
		}
		left = append(left, "state dir: "+f)
	}
	partial, _ := filepath.Glob(filepath.Join(dl, "*", "*", "*.crdownload"))
	for _, p := range partial {
		left = append(left, "partial download: "+p)
	}
	stopCv()
	return left, journals
}

// forgetWorlds closes the agents' worlds and deletes their kept profiles
// (named worlds are kept by design): what the soak made, it removes.
func (s *soak) forgetWorlds() []string {
	var problems []string
	for _, a := range s.agents {
		if a.world == "" {
			continue
		}
		req, err := http.NewRequest(http.MethodDelete, s.cv.endpoint+"/cdpvisor/worlds/"+a.world+"?forget=1", nil)
		if err != nil {
			continue
		}
		resp, err := sampleClient.Do(req)
		if err != nil {
			problems = append(problems, fmt.Sprintf("forget world %s: %v", a.world, err))
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 && resp.StatusCode != http.StatusNotFound {
			problems = append(problems, fmt.Sprintf("forget world %s: HTTP %d", a.world, resp.StatusCode))
		}
	}
	return problems
}

// dirFiles lists the regular files under dir, relative to it.
func dirFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // gone meanwhile
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// buildChromedpAgent builds testdata/goclients/cmd/chromedp_soak into dir.
func buildChromedpAgent(ctx context.Context, dir string) (string, error) {
	root := moduleRoot()
	if root == "" {
		return "", errors.New("the soak runs inside the cdpvisor module (testdata/goclients)")
	}
	out := filepath.Join(dir, "chromedp_soak")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/chromedp_soak")
	cmd.Dir = filepath.Join(root, "testdata", "goclients")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the chromedp agent: %w\n%s", err, b)
	}
	return out, nil
}
