package main

import (
	"cmp"
	"context"
	"fmt"
)

// The crowd (cdpbench --only crowd): N Puppeteer agents at once, each in a
// world of its own and on its own connection, looping with no pause over
// the bench's local page (goto, evaluate, click, screenshot;
// testdata/clients/bench_crowd.mjs). For each N every side runs once, the
// sides' order rotating by N, each on a fresh browser:
//   chromium          a bare Chromium, a createBrowserContext per agent
//   cdpvisor          `cdpvisor serve`, a world per agent (PUT
//                     /cdpvisor/worlds/NAME, the world's own port)
//   cdpvisor-unpaced  the same serve with --max-loads 0
// The headline: does throughput hold as N grows (the largest N ÷ the best
// N), does every loop get done, and does every agent get its share.

// The crowd's sides.
const (
	crowdChromium = "chromium"
	crowdCdpvisor = "cdpvisor"
	crowdUnpaced  = "cdpvisor-unpaced"
)

var crowdSideNames = []string{crowdChromium, crowdCdpvisor, crowdUnpaced}

// crowdResult is the figure.
type crowdResult struct {
	Counts    []int          `json:"counts"`
	Sides     []string       `json:"sides"`
	Chromium  string         `json:"chromium,omitempty"` // the browser's version
	NodeProcs int            `json:"node_processes"`
	Runs      []crowdRun     `json:"runs"` // in the order they ran
	Verdicts  []crowdVerdict `json:"verdicts"`
}

func (b *bench) measureCrowd(ctx context.Context) (*crowdResult, error) {
	cfg := b.cfg
	counts, err := crowdCounts(cfg.CrowdCounts)
	if err != nil {
		return nil, err
	}
	dir, err := puppeteerDir()
	if err != nil {
		return nil, err
	}
	pages, err := startPageServer()
	if err != nil {
		return nil, err
	}
	defer pages.close()
	r := &crowdResult{Counts: counts, Sides: splitComma(cfg.CrowdSides), NodeProcs: cfg.CrowdProcs}
	for i, n := range counts {
		loops := cfg.CrowdLoops
		if loops <= 0 {
			loops = crowdLoopsFor(n, cfg.Quick)
		}
		for _, side := range crowdOrder(r.Sides, i) {
			progress("crowd: %s, %d agents × %d loops", side, n, loops)
			run := crowdRun{Side: side, N: n, Loops: loops, LoadStart: loadAvg()}
			if err := b.crowdSide(ctx, dir, pages, &run); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				run.Err = err.Error()
				progress("crowd: %s at %d agents failed: %v", side, n, err)
			} else {
				progress("crowd: %s at %d: %.2f loops/s all at work (%.2f whole run), %d/%d done, slowest ×%.2f, node CPU %.1f s",
					side, n, run.WindowLPS, run.WholeLPS, run.Done, run.Asked, run.Fairness, run.NodeCPUS)
			}
			r.Runs = append(r.Runs, run)
			r.Chromium = cmp.Or(r.Chromium, run.version)
		}
	}
	for _, s := range r.Sides {
		r.Verdicts = append(r.Verdicts, crowdVerdictOf(s, r.Runs))
	}
	if err := r.writeFiles(cfg.CrowdData, cfg.CrowdPNG); err != nil {
		progress("crowd: %v", err) // the figures stand without their plot
	}
	return r, nil
}

// crowdSide runs one side at run.N agents on a browser of its own, and
// stops it.
func (b *bench) crowdSide(ctx context.Context, dir string, pages *pageServer, run *crowdRun) error {
	conf := map[string]any{
		"loops": run.Loops, "page": pages.base + crowdPagePath, "count": crowdPageCount, "prefix": "crowd",
	}
	cvPid := 0
	switch run.Side {
	case crowdChromium:
		bare, stop, err := b.launchBare(ctx)
		if err != nil {
			return err
		}
		defer stop()
		conf["kind"], conf["ws"] = "chromium", bare.ws
	case crowdCdpvisor, crowdUnpaced:
		var flags []string
		if run.Side == crowdUnpaced {
			flags = []string{"--max-loads", "0"}
		}
		cv, err := startCdpvisorWith(ctx, b.bin, b.browser, b.root, b.cfg.CvLogLevel, b.cvLog, flags)
		if err != nil {
			return err
		}
		defer b.cl.add(cv.stop)()
		// Its browser starts on the first request: before the agents, as
		// the bare one is running before them.
		if _, err := resolveWS(ctx, cv.endpoint); err != nil {
			return err
		}
		conf["kind"], conf["endpoint"] = "cdpvisor", cv.endpoint
		cvPid = cv.pid
	default:
		return fmt.Errorf("unknown side %q", run.Side)
	}
	cpu0 := cvCPU(cvPid)
	out, err := runCrowdNode(ctx, dir, b.root, conf, run.N, b.cfg.CrowdProcs)
	if err != nil {
		return err
	}
	if cvPid != 0 {
		run.CdpvisorCPUS = cvCPU(cvPid) - cpu0
	}
	summarizeCrowd(run, out.Agents)
	run.NodeCPUS, run.NodeLoopCPUS, run.NodeLoopWallS = out.CPUS, out.LoopCPUS, out.LoopWallS
	run.version = out.Version
	return nil
}

// cvCPU is cdpvisor's own CPU seconds so far (0 without /proc).
func cvCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	s, _ := procCPUSeconds(pid)
	return s
}
