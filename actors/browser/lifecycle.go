package browser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
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
	opts.Log = log
	r.go_(func() report {
		proc, err := launcher.Start(ctx, opts, func(line string) {
			if line != "" {
				log.Debug().Str("stderr", line).Msg("browser")
			}
		})
		d := launchDone{gen: gen, proc: proc, err: err}
		if err == nil {
			d.identity = proc.Identity()
		}
		return d
	})
}

func (r *browserRun) handleReport(m report) {
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
	case probeDone:
		r.workers--
		if m.hung && m.gen == r.gen && r.machine.Is(fsm.BrowserRunning) {
			pidFields(r.log.Warn(), r.facts).Dur("silent", m.silent).Dur("hangTimeout", r.a.spec.HangTimeout).
				Msg("the browser answered nothing for the hang timeout: it is hung; ending its process group")
			r.lose(ExitRecord{At: time.Now(), Generation: r.gen, Cause: CauseHung}, fsm.BrowserHang)
		}
	default:
		actor.Unknown(r.log, r.a.String(), m)
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
		if r.retryCrash(m.err) {
			return
		}
		// A failed launch changes nothing that later launches use.
		r.want, r.launchErr = nil, m.err.Error()
		err := m.err
		if len(r.stopWaiters) > 0 {
			err = ErrStopped // called off: nothing to hold demands back for
			r.log.Warn().Err(m.err).Str("fix", remedy.Said(m.err, r.a.spec.Words)).Int("generation", m.gen).Msg("browser launch failed")
		} else {
			window := r.backoff.failed(m.err, r.launching, time.Now())
			r.log.Warn().Err(m.err).Str("fix", remedy.Said(m.err, r.a.spec.Words)).Int("generation", m.gen).Int("failures", r.backoff.failures).Dur("backoff", window).
				Time("nextLaunchAt", r.backoff.next).Msg("browser launch failed")
		}
		r.failWaiters(err)
		r.answerStops(nil)
		return
	}
	r.crashRetry = false
	r.proc, r.facts, r.identity, r.startedAt = m.proc, m.proc.Describe(), m.identity, time.Now()
	r.opts, r.launchErr = r.launching, ""
	r.backoff.reset()
	r.launches++
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
	r.watchHang()
	// The idle time counts from now: the demand that launched it is only
	// now served, and its client connection is registered a moment later.
	r.lastDemand = time.Now()
	r.armIdle()
}

// retryCrash launches once more, at once, when the browser died of a signal
// while it started and no launch had failed before: Chromium does so now and
// then on a loaded machine (seen in the first second, with four clients
// starting at once), and the demands waiting should not fail for it. A second
// crash in a row is a failure like any other.
func (r *browserRun) retryCrash(err error) bool {
	var le *launch.Error
	if r.crashRetry || len(r.stopWaiters) > 0 || r.backoff.failures > 0 || !errors.As(err, &le) || !le.Crashed() {
		r.crashRetry = false
		return false
	}
	r.crashRetry = true
	r.log.Warn().Err(err).Int("generation", r.gen).Msg("the browser crashed while it started; trying once more at once")
	r.startLaunch()
	return true
}

// watchHang starts the hang probe of the running browser (never of one
// cdpvisor attached to: it would not be killed anyway).
func (r *browserRun) watchHang() {
	timeout := r.a.spec.HangTimeout
	if timeout <= 0 || r.facts.Attached {
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.cancelProbe = cancel
	gen, ws, reach, ask := r.gen, r.facts.WSURL, r.facts.Reach, r.facts.Browser.Protocol().AliveRequest()
	r.go_(func() report {
		silent, hung := probeHang(ctx, reach, ws, ask, timeout)
		return probeDone{gen: gen, silent: silent, hung: hung}
	})
}

func (r *browserRun) endProbe() {
	if r.cancelProbe != nil {
		r.cancelProbe()
		r.cancelProbe = nil
	}
}

// armIdle sets the idle-stop timer while a browser runs with no client,
// and stops it otherwise.
func (r *browserRun) armIdle() {
	r.idle.Stop()
	if d := r.a.spec.IdleStop; d > 0 && !r.a.spec.UsersBrowser && r.clients == 0 && r.machine.Is(fsm.BrowserRunning) {
		r.idle.Reset(max(time.Until(r.lastDemand.Add(d)), 0))
	}
}

// idleElapsed stops a browser that had no client and no demand for the
// idle time; the endpoint stays and the next demand launches again.
func (r *browserRun) idleElapsed() {
	idleFor := time.Since(r.lastDemand)
	if r.a.spec.IdleStop <= 0 || r.clients > 0 || !r.machine.Is(fsm.BrowserRunning) || idleFor < r.a.spec.IdleStop {
		r.armIdle()
		return
	}
	pidFields(r.log.Info(), r.facts).Dur("idle", idleFor).Str("reason", "idle stop: no client connection and no demand").
		Msg("stopping the idle browser")
	r.stopCause = CauseIdle
	r.beginStop()
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
	rec := r.crashRecord(r.proc, r.gen)
	pidFields(r.log.Warn(), r.facts).Str("cause", rec.Cause).Str("signal", rec.Signal).Interface("code", rec.Code).
		Msg("browser exited unexpectedly")
	r.lose(rec, fsm.BrowserExit)
}

// lose handles a browser lost without a planned stop (an exit, or a hang,
// for which its process group is killed): the exit is recorded and
// published, the machine settles at once, and the next demand relaunches.
func (r *browserRun) lose(rec ExitRecord, event string) {
	proc, pid, gen := r.proc, r.facts.Pid, r.gen
	r.endProbe()
	r.lastExit = &rec
	r.fire(event)
	r.publish(Exited{Instance: r.a.spec.Instance, Generation: gen, Pid: pid, Record: rec})
	// Its leftovers (helpers, temporary profile) are cleaned up meanwhile: a
	// relaunch needs none of that, and a waiting client should not either.
	kill := event == fsm.BrowserHang
	r.go_(func() report {
		if kill {
			_ = proc.Kill()
		}
		return cleanupDone{gen: gen, err: proc.Stop()}
	})
	r.proc = nil
	r.fire(fsm.BrowserSettle)
	r.armIdle()
	if r.relaunch || len(r.waiters) > 0 {
		r.startLaunch()
	}
}

// crashRecord is the record of an exit nobody asked for.
func (r *browserRun) crashRecord(proc *launch.Process, gen int) ExitRecord {
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
	r.endProbe()
	r.idle.Stop()
	r.fire(fsm.BrowserStop)
	proc, gen, suspect := r.proc, r.gen, r.suspect
	r.suspect = false
	r.go_(func() report {
		wait := time.Duration(0)
		if suspect {
			wait = dyingGrace
		}
		died := proc.WaitExit(wait)
		return stopDone{gen: gen, err: proc.Stop(), died: died}
	})
}

// dyingGrace is how long a stop asked for because the browser stopped
// answering (Replace) waits for the process to be reaped first: a browser
// killed from outside closes its sockets a moment before its exit is seen.
const dyingGrace = 500 * time.Millisecond

func (r *browserRun) stopped(m stopDone) {
	facts, pid, proc := r.facts, r.facts.Pid, r.proc
	r.proc = nil
	if m.err != nil {
		r.log.Error().Err(m.err).Msg("browser cleanup")
	}
	rec := ExitRecord{At: time.Now(), Generation: m.gen, Planned: true, Cause: cmp.Or(r.stopCause, CauseStopped)}
	r.stopCause = ""
	if m.died {
		rec = r.crashRecord(proc, m.gen)
		pidFields(r.log.Warn(), facts).Str("cause", rec.Cause).Str("signal", rec.Signal).Interface("code", rec.Code).
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
	r.endProbe()
	r.idle.Stop()
	if r.machine.Is(fsm.BrowserRunning) {
		r.relaunch = false
		if r.a.spec.KeepOnShutdown || r.facts.Attached {
			r.proc.Detach()
			pidFields(r.log.Info(), r.facts).Str("ownership", r.ownership()).Msg("browser left running")
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
		case cleanupDone, probeDone:
			r.workers--
		case processExited: // the exit watcher's, not a worker's: nothing to wait for
		default:
			actor.Unknown(r.log, r.a.String(), m)
		}
	}
	close(r.quit)
	closed := fmt.Errorf("%w: instance %s was closed while the request was pending", ErrInstanceClosed, r.a.spec.Instance)
	r.failWaiters(closed)
	r.answerStops(closed)
	r.log.Debug().Msg("browser actor stopped")
}
