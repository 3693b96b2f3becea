package main

import (
	"context"
	"fmt"
	"time"
)

// soakFault is one fault the schedule made.
type soakFault struct {
	Kind string    `json:"kind"` // kill (kill -9 of the browser), hang (SIGSTOP), agent (an agent killed)
	At   time.Time `json:"at"`
	// Until is when a client's request stops being in flight at the
	// fault: the kill itself, or for a hang the hang timeout's kill
	// (cdpvisor's) and a launch after it.
	Until  time.Time `json:"until"`
	Pid    int       `json:"pid,omitempty"`
	Agent  string    `json:"agent,omitempty"`
	Missed string    `json:"missed,omitempty"` // why it could not be made (no browser running)
}

// soakIdle is the idle stop crossed once: every agent paused until the
// browser stopped by itself.
type soakIdle struct {
	At          time.Time `json:"at"`
	Stopped     bool      `json:"browser_stopped"` // no browser process after the idle time
	WaitedS     float64   `json:"waited_s"`        // from the pause to the browser's stop
	Relaunched  bool      `json:"relaunched"`      // the next run got a browser again
	Description string    `json:"description,omitempty"`
}

// hangWindow is the hang timeout (cdpvisor's default, 10 s) and a launch.
const hangWindow = 25 * time.Second

// schedule makes the faults until ctx ends: kill -9 of the browser every
// --soak-kill-every, SIGSTOP every --soak-hang-every, one agent killed
// every --soak-agent-kill-every, and the idle stop crossed once at
// --soak-idle-at. The first of each comes one period in.
func (s *soak) schedule(ctx context.Context) ([]soakFault, soakIdle) {
	var faults []soakFault
	var idle soakIdle
	cfg := s.cfg
	nextKill, nextHang, nextAgent := cfg.SoakKillEvery, cfg.SoakHangEvery, cfg.SoakAgentKillEvery
	idleAt, idleDone := cfg.SoakIdleAt, cfg.SoakIdleAt <= 0
	victim := 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return faults, idle
		case <-tick.C:
		}
		t := s.elapsed()
		switch {
		case !idleDone && t >= idleAt:
			idle = s.crossIdle(ctx)
			idleDone = true
			// The clock moved on while paused: no burst of late faults.
			t = s.elapsed()
			nextKill, nextHang, nextAgent = later(nextKill, t), later(nextHang, t), later(nextAgent, t)
		case cfg.SoakHangEvery > 0 && t >= nextHang:
			faults = append(faults, s.hangBrowser())
			nextHang += cfg.SoakHangEvery
			nextKill = later(nextKill, t+hangWindow) // one fault at a time
		case cfg.SoakKillEvery > 0 && t >= nextKill:
			faults = append(faults, s.killBrowser())
			nextKill += cfg.SoakKillEvery
		case cfg.SoakAgentKillEvery > 0 && t >= nextAgent:
			a := s.agents[victim%len(s.agents)]
			victim++
			f := soakFault{Kind: "agent", At: time.Now(), Agent: a.name}
			f.Until = f.At
			if !a.kill() {
				f.Missed = "no run in progress"
			}
			faults = append(faults, f)
			nextAgent += cfg.SoakAgentKillEvery
		}
	}
}

// later is next, or after now when next has passed.
func later(next, now time.Duration) time.Duration {
	if next < now {
		return now + 30*time.Second
	}
	return next
}

// killBrowser sends SIGKILL to the browser's main process.
func (s *soak) killBrowser() soakFault {
	f := soakFault{Kind: "kill", At: time.Now()}
	f.Until = f.At
	pid := s.browserPid()
	if pid == 0 {
		f.Missed = "no browser running"
		return f
	}
	f.Pid = pid
	if err := killPid(pid); err != nil {
		f.Missed = err.Error()
	}
	progress("soak %s: kill -9 of the browser %d", s.elapsed().Round(time.Second), pid)
	return f
}

// hangBrowser stops the browser's main process (SIGSTOP): cdpvisor's hang
// timeout is what ends it. SIGCONT follows a minute later in case nothing
// did, so nothing stays stopped.
func (s *soak) hangBrowser() soakFault {
	f := soakFault{Kind: "hang", At: time.Now()}
	f.Until = f.At.Add(hangWindow)
	pid := s.browserPid()
	if pid == 0 {
		f.Missed = "no browser running"
		return f
	}
	f.Pid = pid
	if err := stopPid(pid); err != nil {
		f.Missed = err.Error()
		return f
	}
	progress("soak %s: SIGSTOP of the browser %d", s.elapsed().Round(time.Second), pid)
	time.AfterFunc(time.Minute, func() { _ = contPid(pid) }) // bounded: ends by itself
	return f
}

// browserPid is the main process of the run's browser (its launch dir is
// under the run's root, and cdpvisor spawns it as the leader of a group of
// its own: its helpers, crashpad's included, are not), 0 when none runs.
func (s *soak) browserPid() int {
	for _, pid := range processesWithEnvPrefix("CDPVISOR_LAUNCH_DIR=" + s.root) {
		if pgidOf(pid) == pid {
			return pid
		}
	}
	return 0
}

// crossIdle pauses every agent, waits for the runs in progress to end and
// for the browser to stop by itself, resumes, and waits for the next runs
// to have a browser again.
func (s *soak) crossIdle(ctx context.Context) soakIdle {
	idle := soakIdle{At: time.Now()}
	progress("soak %s: pausing the agents to cross the idle stop (%s)", s.elapsed().Round(time.Second), s.cfg.SoakIdleStop)
	s.pause()
	resumed := false
	defer func() {
		if !resumed {
			s.resume()
		}
	}()
	for s.active.Load() > 0 && ctx.Err() == nil && time.Since(idle.At) < s.cfg.SoakRunLimit {
		_ = sleepCtx(ctx, time.Second)
	}
	quiet := time.Now()
	limit := s.cfg.SoakIdleStop + time.Minute
	for ctx.Err() == nil && time.Since(quiet) < limit {
		if len(processesWithEnvPrefix("CDPVISOR_LAUNCH_DIR="+s.root)) == 0 {
			idle.Stopped = true
			break
		}
		_ = sleepCtx(ctx, time.Second)
	}
	idle.WaitedS = time.Since(quiet).Seconds()
	if !idle.Stopped {
		idle.Description = fmt.Sprintf("the browser still ran %s after the last client left", limit)
		return idle
	}
	s.resume()
	resumed = true
	for back := time.Now(); ctx.Err() == nil && time.Since(back) < time.Minute; {
		if len(processesWithEnvPrefix("CDPVISOR_LAUNCH_DIR="+s.root)) > 0 {
			idle.Relaunched = true
			break
		}
		_ = sleepCtx(ctx, time.Second)
	}
	if !idle.Relaunched {
		idle.Description = "no browser a minute after the agents went on"
	}
	return idle
}
