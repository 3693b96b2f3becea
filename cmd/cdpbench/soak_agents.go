package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// soakKinds are the clients of the soak's agents, in the order agents
// take them after the two MCP hosts.
var soakKinds = []string{"puppeteer", "playwright", "cri", "chromedp"}

// soakAgent is one agent of the soak: runs of its client, one after the
// other, each of a loop count, until the soak ends. Its runner goroutine
// owns every field but proc (the fault schedule kills through it).
type soakAgent struct {
	name   string
	kind   string // puppeteer, playwright, cri, chromedp, mcp-cdm, mcp-pwm
	world  string // the world it works in ("" for the MCP hosts: wrap --isolate makes it)
	byPort bool   // reaches its world by the world's port, not by path

	mu      sync.Mutex
	proc    *child // the run's process, nil between runs
	killing bool   // the fault schedule killed proc

	stats soakAgentStats
}

// soakAgentStats is what an agent's runs came to.
type soakAgentStats struct {
	Agent      string        `json:"agent"`
	Kind       string        `json:"kind"`
	Reach      string        `json:"reach"` // path, port or wrap --isolate
	RunsDone   int           `json:"runs_done"`
	RunsKilled int           `json:"runs_killed"` // by the schedule (an agent killed)
	RunsFailed int           `json:"runs_failed"` // ended without finishing its loops
	Loops      int           `json:"loops"`
	Failures   []soakFailure `json:"failures,omitempty"`
}

// soakFailure is one failed loop as its client saw it.
type soakFailure struct {
	Agent string    `json:"agent"`
	Loop  int       `json:"loop"`
	T0    time.Time `json:"t0"`
	T1    time.Time `json:"t1"`
	Msg   string    `json:"msg"`
	// Gone: when the client heard the loop's page closed, after T0.
	Gone  time.Time `json:"gone,omitzero"`
	Fault string    `json:"fault,omitempty"` // the fault it was in flight at, "" for none
}

func newSoakAgents(n int) []*soakAgent {
	agents := make([]*soakAgent, n)
	for i := range agents {
		a := &soakAgent{name: fmt.Sprintf("a%02d", i)}
		switch {
		case i == 0:
			a.kind = "mcp-cdm"
		case i == 1:
			a.kind = "mcp-pwm"
		default:
			a.kind = soakKinds[(i-2)%len(soakKinds)]
			a.world = "soak-" + a.name
			a.byPort = (i-2)/len(soakKinds)%2 == 1 // each kind both ways, in turns
		}
		a.stats = soakAgentStats{Agent: a.name, Kind: a.kind, Reach: a.reach()}
		agents[i] = a
	}
	return agents
}

func (a *soakAgent) reach() string {
	switch {
	case a.world == "":
		return "wrap --isolate"
	case a.byPort:
		return "port"
	}
	return "path"
}

// run starts runs until s says the soak ends; a run in progress then
// finishes its loops.
func (a *soakAgent) run(ctx context.Context, s *soak, delay time.Duration) {
	// Agents start a moment apart, as a user's do: three Puppeteer clients
	// connecting to one Chromium at the same instant stall one's first
	// Runtime.callFunctionOn for its protocolTimeout, on a bare Chromium
	// 156 too (measured 2026-11-27), which is no fault of cdpvisor's.
	if sleepCtx(ctx, delay) != nil {
		return
	}
	for s.nextRun(ctx) {
		a.once(ctx, s)
		s.runEnded()
	}
}

// once is one run of the agent's client.
func (a *soakAgent) once(ctx context.Context, s *soak) {
	cmd, err := a.command(ctx, s)
	if err != nil {
		a.stats.RunsFailed++
		progress("soak: %s: %v", a.name, err)
		_ = sleepCtx(ctx, 5*time.Second)
		return
	}
	cmd.Env = append(cmd.Env, fmt.Sprintf("SOAK_THINK_MS=%d", s.cfg.SoakThink.Milliseconds()))
	var last string
	out := newLineWriter(0, func(line string) { a.heard(line, &last, s) })
	errs := newLineWriter(5, nil)
	cmd.Dir = s.root // what a client writes where it runs stays in the run's dir
	ch, err := startChild(a.name, cmd, out, errs, s.root)
	if err != nil {
		a.stats.RunsFailed++
		progress("soak: %s: %v", a.name, err)
		return
	}
	a.mu.Lock()
	a.proc, a.killing = ch, false
	a.mu.Unlock()
	limit := time.NewTimer(s.cfg.SoakRunLimit)
	defer limit.Stop()
	select {
	case <-ch.exited:
	case <-limit.C:
		progress("soak: %s: a run took over %s; killing it", a.name, s.cfg.SoakRunLimit)
		ch.killAll()
	case <-ctx.Done():
		ch.killAll()
	}
	ch.killAll() // what the run's client left in its group (an MCP server)
	a.mu.Lock()
	killed := a.killing
	a.proc = nil
	a.mu.Unlock()
	switch code := ch.cmd.ProcessState.ExitCode(); {
	case killed:
		a.stats.RunsKilled++
	case code == 0 && last == "done":
		a.stats.RunsDone++
	default:
		a.stats.RunsFailed++
		progress("soak: %s: run ended with code %d; last stderr:\n%s", a.name, code, errs.tail())
	}
}

// heard reads one line of the client's stdout.
func (a *soakAgent) heard(line string, last *string, s *soak) {
	var m struct {
		Loop *int   `json:"loop"`
		Fail string `json:"fail"`
		T0   int64  `json:"t0"`
		T1   int64  `json:"t1"`
		Gone int64  `json:"gone"`
		Done *int   `json:"done"`
	}
	if json.Unmarshal([]byte(line), &m) != nil {
		return
	}
	switch {
	case m.Fail != "":
		a.stats.Failures = append(a.stats.Failures, soakFailure{
			Agent: a.name, Loop: derefInt(m.Loop), T0: time.UnixMilli(m.T0), T1: time.UnixMilli(m.T1), Msg: m.Fail,
		})
		if m.Gone != 0 {
			a.stats.Failures[len(a.stats.Failures)-1].Gone = time.UnixMilli(m.Gone)
		}
		*last = "fail"
		s.fails.Add(1)
		first, _, _ := strings.Cut(m.Fail, "\n")
		progress("soak %s: %s (%s) loop %d failed after %.1f s: %s", s.elapsed().Round(time.Second), a.name, a.kind,
			derefInt(m.Loop), float64(m.T1-m.T0)/1000, first)
	case m.Loop != nil:
		a.stats.Loops++
		*last = "loop"
		s.loops.Add(1)
	case m.Done != nil:
		*last = "done"
	}
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// kill ends the agent's run in progress (SIGKILL to its group: the client
// and what it started), as a user's agent dies; false when none runs.
func (a *soakAgent) kill() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.proc == nil {
		return false
	}
	a.killing = true
	_ = killGroup(a.proc.pid)
	return true
}

// command is the agent's client for one run.
func (a *soakAgent) command(ctx context.Context, s *soak) (*exec.Cmd, error) {
	loops := strconv.Itoa(s.cfg.SoakLoops)
	if a.world == "" {
		kind := a.kind[len("mcp-"):]
		work, err := os.MkdirTemp(s.root, "w")
		if err != nil {
			return nil, err
		}
		cmd := exec.Command("node", filepath.Join(s.clients, "soak_mcp.mjs"), s.bin, s.site.base, loops, kind, work)
		cmd.Env = []string{"CDPVISOR_STATE_DIR=" + s.cv.stateDir}
		return cmd, nil
	}
	endpoint := s.cv.endpoint + "/context/" + a.world
	if a.byPort {
		var err error
		if endpoint, err = worldPort(ctx, s.cv.endpoint, a.world); err != nil {
			return nil, err
		}
	}
	if a.kind == "chromedp" {
		return exec.Command(s.chromedp, endpoint, s.site.base, loops), nil
	}
	return exec.Command("node", filepath.Join(s.clients, "soak_"+a.kind+".mjs"), endpoint, s.site.base, loops), nil
}

// worldPort makes or finds the world name and returns its own port's
// endpoint (PUT /cdpvisor/worlds/NAME).
func worldPort(ctx context.Context, endpoint, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, endpoint+"/cdpvisor/worlds/"+name, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("open world %s: %w", name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var w struct {
		Endpoint string `json:"endpoint"`
		Port     int    `json:"port"`
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("open world %s: HTTP %d: %s", name, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &w); err != nil || w.Port == 0 {
		return "", fmt.Errorf("open world %s: no port in %s", name, body)
	}
	return w.Endpoint, nil
}
