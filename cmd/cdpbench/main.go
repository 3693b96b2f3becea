// Command cdpbench measures what cdpvisor costs over a bare Chromium:
// round trip, large messages, fan-in, cold start, recovery after kill -9
// and the coordinator's memory; and, only with --only worlds, what N agents
// cost in memory as worlds of one browser against a browser each (and the
// round trip through a world). Every figure is a difference or a ratio
// taken from interleaved runs (direct, cdpvisor, direct, cdpvisor, …) in
// this one process. With --baseline-bin, cold start and recovery also
// compare cdpvisor with a second cdpvisor build ("today's"). It uses
// nothing of cdpvisor but its command line and its endpoint.
//
//	cdpbench --launch [--browser /usr/bin/chromium] [--cdpvisor-bin PATH] [--baseline-bin PATH] [--quick] [--json FILE]
//	cdpbench --direct http://127.0.0.1:9222 --proxy http://127.0.0.1:PORT
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == goRelayCommand {
		if err := runGoRelay(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "cdpbench gorelay:", err)
			os.Exit(1)
		}
		return
	}
	cfg, err := parseConfig(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cdpbench:", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := &cleaner{}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		fmt.Fprintln(os.Stderr, "cdpbench: interrupted; ending what it started")
		cancel()
		// Measurements stop at their next wait; if they do not within 15 s
		// (or on a second Ctrl-C) clean up from here.
		select {
		case <-sigs:
		case <-time.After(15 * time.Second):
		}
		cl.run()
		os.Exit(130)
	}()
	failed, err := run(ctx, cfg, cl)
	cl.run()
	if ctx.Err() != nil {
		os.Exit(130)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cdpbench:", err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}

// progress is a line on stderr, so stdout is only the table.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cdpbench: "+format+"\n", args...)
}

// run sets up both sides, takes every figure wanted, prints the table and
// writes the JSON. failed is set when a figure could not be taken.
func run(ctx context.Context, cfg config, cl *cleaner) (failed bool, err error) {
	rep := &report{
		Date:    time.Now().UTC().Format(time.RFC3339),
		Config:  cfg,
		Machine: collectMachine(),
		Skipped: map[string]string{},
		Errors:  map[string]string{},
	}
	if dir := moduleRoot(); dir != "" {
		rep.Commit = commandLine(dir, "git", "rev-parse", "--short", "HEAD")
	}
	b := &bench{cfg: cfg, cl: cl, browser: cfg.Browser}
	direct, proxy := cfg.Direct, cfg.Proxy
	mem := &memoryResult{}
	step := func(name string, fn func() error) {
		if ctx.Err() != nil || !cfg.wants(name) {
			if _, skipped := rep.Skipped[name]; !skipped && ctx.Err() == nil {
				rep.Skipped[name] = "skipped: not in --only"
				if contains(optInFigures, name) {
					rep.Skipped[name] = "skipped: only with --only " + name
				}
			}
			return
		}
		if _, skipped := rep.Skipped[name]; skipped {
			return
		}
		progress("measuring %s", name)
		t0 := time.Now()
		if err := fn(); err != nil {
			rep.Errors[name] = err.Error()
			progress("%s failed: %v", name, err)
			return
		}
		progress("%s done in %.1f s", name, time.Since(t0).Seconds())
	}
	// pair: a figure wanted that compares the long-lived bare browser and
	// cdpvisor (all but worlds, which starts its own).
	pair := cfg.wantsPair()
	if cfg.Launch {
		rep.Mode = "launch"
		if b.root, err = shortTempRoot(); err != nil {
			return false, err
		}
		root := b.root
		cl.add(func() { _ = os.RemoveAll(root) }) // first in, last out: after every process ended
		if cfg.CvLogFile != "" {
			f, err := os.OpenFile(cfg.CvLogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				return false, err
			}
			b.cvLog = &syncWriter{w: f}
			cl.add(func() { _ = f.Close() }) // after the processes ended (added before them)
		}
		if b.bin, err = findCdpvisor(ctx, cfg.CdpvisorBin, b.root); err != nil {
			return false, err
		}
		rep.Machine.CdpvisorBinary = commandLine("", b.bin, "version")
		if cfg.BaselineBin != "" {
			if b.baseBin, err = findBaseline(cfg.BaselineBin); err != nil {
				return false, err
			}
			rep.Machine.BaselineBinary = commandLine("", b.baseBin, "version")
		}
		// Worlds first, before the pair's browsers exist: other Chromium
		// processes on the machine take part of its browsers' PSS.
		if !havePSS {
			rep.Skipped["worlds"] = "skipped: needs /proc (Linux)"
		}
		step("worlds", func() (err error) {
			rep.Worlds, err = b.measureWorlds(ctx)
			if err == nil && rep.Machine.Chromium == "" {
				rep.Machine.Chromium = rep.Worlds.Chromium
			}
			return
		})
		if !havePSS {
			rep.Skipped["worldscale"] = "skipped: needs /proc (Linux)"
		}
		step("worldscale", func() (err error) {
			rep.WorldScale, err = b.measureWorldScale(ctx)
			return
		})
		step("worldtime", func() (err error) {
			rep.WorldTime, err = b.measureWorldTime(ctx)
			return
		})
		step("liveview", func() (err error) {
			rep.LiveView, err = b.measureLiveView(ctx)
			return
		})
		step("restore", func() (err error) {
			rep.Restore, err = b.measureRestore(ctx)
			return
		})
		step("journal", func() (err error) {
			rep.Journal, err = b.measureJournal(ctx)
			return
		})
		if !havePSS {
			rep.Skipped["soak"] = "skipped: needs /proc (Linux)"
		}
		step("soak", func() (err error) {
			rep.Soak, err = b.measureSoak(ctx)
			return
		})
		step("crowd", func() (err error) {
			rep.Crowd, err = b.measureCrowd(ctx)
			if err == nil && rep.Machine.Chromium == "" {
				rep.Machine.Chromium = rep.Crowd.Chromium
			}
			return
		})
		step("recording", func() (err error) {
			if rep.Recording, err = b.measureRecording(ctx); err == nil {
				err = rep.Recording.framesLost() // the table has its numbers; the run fails
			}
			return
		})
	}
	if cfg.Launch && pair {
		progress("starting cdpvisor serve (%s) and a bare %s under %s", b.bin, b.browser, b.root)
		if b.cv, _, err = b.launchCdpvisor(ctx); err != nil {
			return false, err
		}
		proxy = b.cv.endpoint
		if cfg.wants("memory") {
			if err := sleepCtx(ctx, time.Second); err != nil {
				return false, err
			}
			if mem.IdleFresh, err = readProcMem(b.cv.pid); err != nil {
				rep.Errors["memory"] = err.Error()
			}
		}
		if b.bare, _, err = b.launchBare(ctx); err != nil {
			return false, err
		}
		if direct, err = httpEndpoint(b.bare.ws); err != nil {
			return false, err
		}
	}
	if !cfg.Launch {
		rep.Mode = "endpoints"
		for _, f := range []string{"coldstart", "recovery", "memory", "worlds", "worldtime", "worldscale", "liveview", "restore", "journal", "soak", "recording", "crowd"} {
			rep.Skipped[f] = skippedNeedLaunch
		}
	}
	if pair {
		if err := runPair(ctx, cfg, b, rep, mem, direct, proxy, step); err != nil {
			return false, err
		}
	} else {
		for _, f := range figureNames {
			if !contains(optInFigures, f) {
				step(f, nil) // none is wanted: noted as skipped
			}
		}
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	return finish(rep, cfg)
}

// runPair takes the figures of the long-lived pair, a bare browser
// (direct) and cdpvisor (proxy).
func runPair(ctx context.Context, cfg config, b *bench, rep *report, mem *memoryResult, direct, proxy string, step func(string, func() error)) error {
	cl := b.cl
	rep.Direct, rep.Proxy = direct, proxy

	progress("connecting to %s (direct) and %s (cdpvisor)", direct, proxy)
	d, err := openSide(ctx, sideDirect, direct, cfg.Timeout)
	if err != nil {
		return err
	}
	cl.add(func() { d.close(context.Background(), 2*time.Second) })
	p, err := openSide(ctx, sideProxy, proxy, 30*time.Second)
	if err != nil {
		return err
	}
	cl.add(func() { p.close(context.Background(), 2*time.Second) })
	if v, err := browserGetVersion(ctx, d.client, cfg.Timeout); err == nil {
		rep.Machine.Chromium = v.Product
	}
	if v, err := browserGetVersion(ctx, p.client, cfg.Timeout); err == nil {
		rep.Machine.ProxyChromium = v.Product
	}

	// Memory first: the later figures (10 MB messages, fan-in) grow the
	// heap, and a Go process gives memory back to the system slowly.
	step("memory", func() error {
		rep.Memory = mem
		if _, bad := rep.Errors["memory"]; bad {
			return errors.New(rep.Errors["memory"])
		}
		if cfg.MemCli == 0 {
			return nil
		}
		return b.measureMemoryClients(ctx, mem, p.ws, cfg.MemCli)
	})
	// The control side: cdpvisor's own browser without cdpvisor, for the
	// round trip and large messages (closed before anything kills it).
	var control *endpointSide
	if cfg.wants("roundtrip") || cfg.wants("roundtrip-node") || cfg.wants("large") {
		control = b.openControl(ctx, p)
	}
	closeControl := cl.add(func() { control.close(context.Background(), 2*time.Second) })
	step("roundtrip", func() (err error) { rep.RoundTrip, err = measureRoundTrip(ctx, cfg, d, p, control); return })
	step("roundtrip-node", func() (err error) { rep.NodeRoundTrip, err = b.measureNodeRoundTrip(ctx, d, p, control); return })
	step("large", func() (err error) { rep.Large, err = measureLarge(ctx, cfg, d, p, control); return })
	closeControl()
	step("fanin", func() (err error) {
		rep.Fanin, err = measureFanin(ctx, cfg, d, p)
		if err == nil && b.cv != nil {
			if m, err := readProcMem(b.cv.pid); err == nil {
				rep.Fanin.ProxyPeakRSSkB = m.HWMkB
			}
		}
		return
	})
	step("coldstart", func() (err error) { rep.ColdStart, err = b.measureColdStart(ctx); return })
	step("recovery", func() (err error) {
		p.target = "" // its page dies with the killed browser: closing it would relaunch one
		rep.Recovery, err = b.measureRecovery(ctx, p.ws)
		return
	})
	if rep.Memory != nil && b.cv != nil {
		if m, err := readProcMem(b.cv.pid); err == nil {
			rep.Memory.EndOfRun = m
		}
	}
	return nil
}

// finish prints the table and writes the files.
func finish(rep *report, cfg config) (failed bool, err error) {
	rep.Machine.LoadEnd = loadAvg()
	rep.Rows = buildRows(rep)
	fmt.Printf("cdpbench %s, checkout %s, %s; %d× %s, %d MB, kernel %s, %s; load %s → %s\n",
		rep.Date, orDash(rep.Commit), rep.Machine.Chromium, rep.Machine.NProc, orDash(rep.Machine.CPUModel),
		rep.Machine.MemTotalMB, orDash(rep.Machine.Kernel), rep.Machine.GoVersion,
		orDash(rep.Machine.LoadStart), orDash(rep.Machine.LoadEnd))
	fmt.Print(formatTable(rep.Rows))
	if rep.NodeRoundTrip != nil {
		fmt.Print("\n" + formatNodeSides(rep.NodeRoundTrip))
	}
	if rep.Worlds != nil {
		fmt.Print("\n" + formatWorldsRounds(rep.Worlds))
	}
	if rep.Crowd != nil {
		fmt.Print("\n" + formatCrowdMarkdown(rep.Crowd))
	}
	if cfg.JSONFile != "" {
		if err := writeJSON(cfg.JSONFile, rep); err != nil {
			return true, err
		}
		progress("wrote %s", cfg.JSONFile)
	}
	if cfg.MarkdownFile != "" {
		md := formatMarkdown(rep.Rows)
		if rep.Crowd != nil {
			md += "\n" + formatCrowdMarkdown(rep.Crowd)
		}
		if err := os.WriteFile(cfg.MarkdownFile, []byte(md), 0o644); err != nil {
			return true, err
		}
		progress("wrote %s", cfg.MarkdownFile)
	}
	failed = len(rep.Errors) > 0
	if rep.Soak != nil {
		for _, v := range rep.Soak.failedVerdicts() {
			progress("soak: verdict NO: %s", v)
			failed = true
		}
	}
	return failed, nil
}

func orDash(s string) string {
	if s == "" {
		return notApplicable
	}
	return s
}

// syncWriter serialises writes from several children's line writers.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
