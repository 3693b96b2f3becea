// Package watchdog guards against a coordinator killed without cleaning up:
// the WatchdogActor starts one detached `cdpvisor watchdog` process per
// launched browser, that process's clean-up, and the start-up reaper.
package watchdog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// Spec configures the Actor.
type Spec struct {
	Exe       string // the cdpvisor executable that runs `cdpvisor watchdog`
	StateFile string // this coordinator's state file, for the watchdog to remove
	Log       zerolog.Logger
}

// Actor starts one detached `cdpvisor watchdog` per browser the
// coordinator launched. Each holds the read end of a pipe whose write end
// only this process holds: when the coordinator dies, however (SIGKILL
// included), the pipe reads EOF and the watchdog ends the browser and
// removes what the coordinator would have. A stop or exit the coordinator
// handled itself releases the watchdog.
type Actor struct {
	spec   Spec
	events chan browser.Event
}

// New makes the actor; Watch has it guard a BrowserActor's browsers.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, events: make(chan browser.Event, 64)}
}

func (w *Actor) String() string { return "watchdog" }

// Watch has the watchdog guard every browser b launches from now on, and
// one already running: it subscribes to b's events without loss.
func (w *Actor) Watch(ctx context.Context, b *browser.Actor) error {
	if _, err := b.Subscribe(ctx, w.events, browser.Lossless); err != nil {
		return fmt.Errorf("the watchdog could not watch %s: %w", b, err)
	}
	return nil
}

type guardKey struct {
	instance string
	gen      int
}

// guard is one running watchdog process.
type guard struct {
	cmd  *exec.Cmd
	pipe *os.File // the write end: closing it without the release byte means "I died"
	done chan struct{}
}

// watchdogShutdownWait bounds how long a stopping coordinator waits for its
// browsers' exits before releasing their watchdogs.
const watchdogShutdownWait = 20 * time.Second

// Serve starts and releases watchdogs until ctx is done; then it waits for
// the browsers to be stopped and releases the rest.
func (w *Actor) Serve(ctx context.Context) error {
	guards := map[guardKey]*guard{}
	for {
		select {
		case ev := <-w.events:
			w.handle(ev, guards)
		case <-ctx.Done():
			deadline := time.After(watchdogShutdownWait)
			for len(guards) > 0 {
				select {
				case ev := <-w.events:
					w.handle(ev, guards)
				case <-deadline:
					for key := range guards {
						w.release(key, guards)
					}
				}
			}
			return ctx.Err()
		}
	}
}

func (w *Actor) handle(ev browser.Event, guards map[guardKey]*guard) {
	switch ev := ev.(type) {
	case browser.Ready:
		ep := ev.Endpoint
		if ep.Ownership != "launched" || (ep.Pid <= 0 && ep.Identity.WindowsPid <= 0) {
			return // never guard (and so never kill) a browser cdpvisor did not start
		}
		key := guardKey{ep.Instance, ep.Generation}
		if _, dup := guards[key]; dup {
			return // one watchdog per browser
		}
		g, err := w.start(ep)
		if err != nil {
			w.spec.Log.Error().Err(err).Int("pid", ep.Pid).Int("windowsPid", ep.Identity.WindowsPid).Msg("no watchdog for this browser: it may outlive a killed coordinator")
			return
		}
		guards[key] = g
	case browser.Exited:
		w.release(guardKey{ev.Instance, ev.Generation}, guards)
	}
}

func (w *Actor) start(ep browser.Endpoint) (*guard, error) {
	spec := ProcessSpec{Browser: ep.Identity, RemoveDir: ep.TempDir, StateFile: w.spec.StateFile, CoordinatorPID: os.Getpid()}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(w.spec.Exe, append([]string{"watchdog"}, spec.Args()...)...)
	cmd.ExtraFiles = []*os.File{r} // fd 3 in the watchdog
	cmd.SysProcAttr = detachedProcAttr()
	if err := cmd.Start(); err != nil {
		r.Close()
		pw.Close()
		return nil, err
	}
	r.Close()
	g := &guard{cmd: cmd, pipe: pw, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(g.done) }() // reaps it; ends with the watchdog
	w.spec.Log.Debug().Int("watchdog", cmd.Process.Pid).Int("browser", ep.Pid).Msg("watchdog started")
	return g, nil
}

// release tells a watchdog its browser was handled, and waits for it.
func (w *Actor) release(key guardKey, guards map[guardKey]*guard) {
	g, ok := guards[key]
	if !ok {
		return
	}
	delete(guards, key)
	_, _ = g.pipe.Write([]byte{releaseByte})
	g.pipe.Close()
	select {
	case <-g.done:
	case <-time.After(2 * time.Second):
		_ = g.cmd.Process.Kill()
		<-g.done
	}
}
