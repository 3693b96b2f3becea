package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// The crowd's Node side: procs processes of bench_crowd.mjs share a side's
// agents. Each sets its agents up and says so; only when all have, each is
// told to start, so every agent starts looping at once whatever process
// drives it. One process suffices while its CPU is well under a core (the
// agents wait on the browser); --crowd-node-procs splits them if not.

// crowdNodeOut is what the processes of one side's run told, together.
type crowdNodeOut struct {
	Agents    []crowdAgent
	CPUS      float64 // every process's user+system time, whole run (rusage)
	LoopCPUS  float64 // theirs while the agents looped (process.cpuUsage)
	LoopWallS float64 // the longest loop phase of a process
	Version   string  // the browser's, as Puppeteer read it
}

// crowdSetupLimit bounds the agents' setup: Puppeteer's own time-outs end
// it well before; this is for a process that hangs.
const crowdSetupLimit = 5 * time.Minute

type crowdProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *lineWriter
}

// runCrowdNode runs n agents (ids 1..n) of conf's side over procs
// processes and gathers what they tell.
func runCrowdNode(ctx context.Context, dir, root string, conf map[string]any, n, procs int) (*crowdNodeOut, error) {
	procs = max(1, min(procs, n))
	ctx, cancel := context.WithCancel(ctx)
	var ps []*crowdProc
	var wg sync.WaitGroup
	defer func() { // ends and reaps every process still running when one failed
		cancel()
		wg.Wait()
		for _, p := range ps {
			if p.cmd.ProcessState == nil {
				_ = p.cmd.Wait()
			}
		}
	}()
	for p := range procs {
		var ids []int
		for id := p + 1; id <= n; id += procs {
			ids = append(ids, id)
		}
		c := map[string]any{"agents": ids}
		for k, v := range conf {
			c[k] = v
		}
		cp, err := startCrowdProc(ctx, dir, filepath.Join(root, fmt.Sprintf("crowd-%d.json", p)), c, &wg)
		if err != nil {
			return nil, err
		}
		ps = append(ps, cp)
	}
	deadline := time.After(crowdSetupLimit)
	for _, p := range ps {
		line, err := p.next(ctx, deadline)
		if err != nil {
			return nil, fmt.Errorf("agents' setup: %w", err)
		}
		if !bytes.Contains(line, []byte(`"ready":true`)) {
			return nil, fmt.Errorf("bench_crowd.mjs printed %q, not that its agents were ready", tail(string(line), 300))
		}
	}
	for _, p := range ps {
		if _, err := io.WriteString(p.stdin, "go\n"); err != nil {
			return nil, fmt.Errorf("start the agents: %w: %s", err, p.stderr.tail())
		}
	}
	out := &crowdNodeOut{}
	for _, p := range ps {
		line, err := p.next(ctx, nil)
		if err != nil {
			return nil, err
		}
		var res struct {
			OK        bool
			Version   string
			Agents    []crowdAgent
			LoopCPUS  float64 `json:"loopCpuS"`
			LoopWallS float64 `json:"loopWallS"`
		}
		if err := json.Unmarshal(line, &res); err != nil || !res.OK {
			return nil, fmt.Errorf("bench_crowd.mjs printed %q: %v", tail(string(line), 300), err)
		}
		out.Agents = append(out.Agents, res.Agents...)
		out.LoopCPUS += res.LoopCPUS
		out.Version = cmp.Or(out.Version, res.Version)
		out.LoopWallS = max(out.LoopWallS, res.LoopWallS)
	}
	for _, p := range ps {
		_ = p.stdin.Close()
		for range p.lines { // to its EOF before Wait closes the pipe
		}
		if err := p.cmd.Wait(); err != nil {
			return nil, fmt.Errorf("bench_crowd.mjs: %w: %s", err, p.stderr.tail())
		}
		out.CPUS += (p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()).Seconds()
	}
	return out, nil
}

// startCrowdProc writes conf to confFile and starts a process of
// bench_crowd.mjs on it; its stdout lines come on lines.
func startCrowdProc(ctx context.Context, dir, confFile string, conf map[string]any, wg *sync.WaitGroup) (*crowdProc, error) {
	data, err := json.Marshal(conf)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(confFile, data, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "bench_crowd.mjs"), confFile)
	cmd.Dir = dir
	p := &crowdProc{cmd: cmd, lines: make(chan []byte, 4), stderr: newLineWriter(20, nil)}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node bench_crowd.mjs: %w", err)
	}
	wg.Add(1)
	go func() { // owned: ends at the process's EOF, waited for by runCrowdNode
		defer wg.Done()
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 64<<20) // the result is one long line
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	return p, nil
}

// next is the process's next stdout line.
func (p *crowdProc) next(ctx context.Context, deadline <-chan time.Time) ([]byte, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			_ = p.cmd.Wait()
			return nil, fmt.Errorf("bench_crowd.mjs ended early (%v): %s", p.cmd.ProcessState, p.stderr.tail())
		}
		return line, nil
	case <-deadline:
		return nil, errors.New("bench_crowd.mjs: its agents were not set up within " + crowdSetupLimit.String())
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
