package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/fsm"
)

// The life of one browser: launch, readiness, exit, stop, and the
// actor's own end. Each step runs on the Serve goroutine; the slow parts
// (start, stop, cleanup) run in goroutines of the run and report back.

func (r *browserRun) startLaunch() {
	r.relaunch = false
	r.gen++
	r.launching = r.nextOptions()
	r.fire(fsm.BrowserLaunch)
	r.publish(Starting{Instance: r.a.spec.Instance, Generation: r.gen})
	ctx, cancel := context.WithCancel(r.ctx)
	r.cancelLaunch = cancel
	gen, opts, launcher, log := r.gen, r.launching, r.a.spec.Launcher, r.log.With().Int("generation", r.gen).Logger()
	r.go_(func() any {
		proc, err := launcher.Start(ctx, opts, func(line string) { log.Debug().Str("stderr", line).Msg("browser") })
		d := launchDone{gen: gen, proc: proc, err: err}
		if err == nil {
			d.identity = proc.Identity()
		}
		return d
	})
}

func (r *browserRun) handleReport(m any) {
	switch m := m.(type) {
	case launchDone:
		r.workers--
		r.cancelLaunch()
		r.launched(m)
	case processExited:
		if m.gen == r.gen && r.machine.Is(fsm.BrowserRunning) {
			r.exited()
		}
	case stopDone:
		r.workers--
		r.stopped(m)
	case cleanupDone:
		r.workers--
		if m.err != nil {
			r.log.Error().Err(m.err).Int("generation", m.gen).Msg("cleanup after the browser's exit")
		}
	}
}

func (r *browserRun) launched(m launchDone) {
	if m.err != nil {
		r.fire(fsm.BrowserLaunchFailed)
		r.publish(LaunchFailed{Instance: r.a.spec.Instance, Generation: m.gen, Err: m.err})
		if r.relaunch && len(r.stopWaiters) == 0 {
			r.startLaunch() // called off for a newer request
			return
		}
		r.log.Warn().Err(m.err).Int("generation", m.gen).Msg("browser launch failed")
		// A failed launch changes nothing that later launches use.
		r.want, r.launchErr = nil, m.err.Error()
		err := m.err
		if len(r.stopWaiters) > 0 {
			err = ErrStopped
		}
		r.failWaiters(err)
		r.answerStops(nil)
		return
	}
	r.proc, r.facts, r.identity, r.startedAt = m.proc, m.proc.Describe(), m.identity, time.Now()
	r.opts, r.launchErr = r.launching, ""
	if !r.relaunch {
		r.want = nil // settled; a newer request keeps its own
	}
	r.fire(fsm.BrowserReady)
	if r.relaunch || len(r.stopWaiters) > 0 {
		// A new launch or a stop was asked for while this one started.
		r.watchExit()
		r.beginStop()
		return
	}
	ep := r.endpoint()
	for _, w := range r.waiters {
		w <- launchResult{ep: ep}
	}
	r.waiters = nil
	r.publish(Ready{Endpoint: ep})
	r.watchExit()
}

// watchExit reports the running process's exit, planned or not.
func (r *browserRun) watchExit() {
	proc, gen := r.proc, r.gen
	go func() { // owned: it ends when the process exits or the run is over
		select {
		case <-proc.Exited():
			select {
			case r.reports <- processExited{gen: gen}:
			case <-r.quit:
			}
		case <-r.quit:
		}
	}()
}

// exited handles an unplanned exit: record it, tell subscribers, clean up.
func (r *browserRun) exited() {
	proc, pid := r.proc, r.facts.Pid
	rec := r.crashRecord(proc, r.gen)
	r.lastExit = &rec
	r.fire(fsm.BrowserExit)
	r.log.Warn().Int("pid", pid).Str("cause", rec.Cause).Str("signal", rec.Signal).Interface("code", rec.Code).Msg("browser exited unexpectedly")
	r.publish(Exited{Instance: r.a.spec.Instance, Generation: r.gen, Pid: pid, Record: rec})
	// Its leftovers (helpers, temporary profile) are cleaned up meanwhile: a
	// relaunch needs none of that, and a waiting client should not either.
	gen := r.gen
	r.go_(func() any { return cleanupDone{gen: gen, err: proc.Stop()} })
	r.proc = nil
	r.fire(fsm.BrowserSettle)
	if r.relaunch || len(r.waiters) > 0 {
		r.startLaunch()
	}
}

// crashRecord is the record of an exit nobody asked for.
func (r *browserRun) crashRecord(proc Process, gen int) ExitRecord {
	rec := ExitRecord{At: time.Now(), Generation: gen, Cause: CauseCrash}
	if r.facts.Attached {
		rec.Cause = CauseGone
	} else if st := proc.ExitStatus(); st.Signal != "" {
		rec.Signal = st.Signal
	} else if st.Code >= 0 {
		code := st.Code
		rec.Code = &code
	}
	return rec
}

// beginStop stops the running browser (SIGTERM, the wait, SIGKILL, its
// temporary profile removed) and reports stopDone. A browser that had
// already exited by itself is reported as such: its end was not asked
// for, so it is a crash, whatever asked for the stop meanwhile.
func (r *browserRun) beginStop() {
	r.fire(fsm.BrowserStop)
	proc, gen, suspect := r.proc, r.gen, r.suspect
	r.suspect = false
	r.go_(func() any {
		wait := time.Duration(0)
		if suspect {
			wait = dyingGrace
		}
		died := exitedWithin(proc, wait)
		return stopDone{gen: gen, err: proc.Stop(), died: died}
	})
}

// dyingGrace is how long a stop asked for because the browser stopped
// answering (Replace) waits for the process to be reaped first: a browser
// killed from outside closes its sockets a moment before its exit is seen.
const dyingGrace = 500 * time.Millisecond

func exitedWithin(proc Process, d time.Duration) bool {
	if d <= 0 {
		select {
		case <-proc.Exited():
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-proc.Exited():
		return true
	case <-t.C:
		return false
	}
}

func (r *browserRun) stopped(m stopDone) {
	pid, proc := r.facts.Pid, r.proc
	r.proc = nil
	if m.err != nil {
		r.log.Error().Err(m.err).Msg("browser cleanup")
	}
	rec := ExitRecord{At: time.Now(), Generation: m.gen, Planned: true, Cause: CauseStopped}
	if m.died {
		rec = r.crashRecord(proc, m.gen)
		r.log.Warn().Int("pid", pid).Str("cause", rec.Cause).Str("signal", rec.Signal).Interface("code", rec.Code).
			Msg("browser exited unexpectedly before it was stopped")
	}
	r.lastExit = &rec
	r.fire(fsm.BrowserStopped)
	r.publish(Exited{Instance: r.a.spec.Instance, Generation: m.gen, Pid: pid, Planned: rec.Planned, Record: rec})
	r.answerStops(m.err)
	if r.relaunch || len(r.waiters) > 0 {
		r.startLaunch()
	}
}

func (r *browserRun) answerStops(err error) {
	for _, s := range r.stopWaiters {
		s <- err
	}
	r.stopWaiters = nil
}

func (r *browserRun) failWaiters(err error) {
	for _, w := range r.waiters {
		w <- launchResult{err: err}
	}
	r.waiters = nil
}

// shutdown stops the browser and waits for every goroutine of the run.
func (r *browserRun) shutdown() {
	if r.cancelLaunch != nil {
		r.cancelLaunch()
	}
	if r.machine.Is(fsm.BrowserRunning) {
		r.relaunch = false
		if r.a.spec.KeepOnShutdown || r.facts.Attached {
			r.proc.Detach()
			r.log.Info().Int("pid", r.facts.Pid).Str("ownership", r.ownership()).Msg("browser left running")
		} else {
			r.beginStop()
		}
	}
	for r.workers > 0 {
		m := <-r.reports
		switch m := m.(type) {
		case launchDone:
			r.workers--
			if m.proc != nil {
				_ = m.proc.Stop()
			}
		case stopDone:
			r.workers--
			if m.err != nil {
				r.log.Error().Err(m.err).Msg("browser cleanup")
			}
			rec := ExitRecord{At: time.Now(), Generation: m.gen, Planned: true, Cause: CauseStopped}
			r.publish(Exited{Instance: r.a.spec.Instance, Generation: m.gen, Pid: r.facts.Pid, Planned: true, Record: rec})
		case cleanupDone:
			r.workers--
		}
	}
	close(r.quit)
	closed := fmt.Errorf("%w: instance %s was closed while the request was pending", ErrInstanceClosed, r.a.spec.Instance)
	r.failWaiters(closed)
	r.answerStops(closed)
	r.log.Debug().Msg("browser actor stopped")
}
