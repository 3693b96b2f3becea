// Package watchdog guards against a coordinator killed without cleaning up.
// The WatchdogActor starts one detached guard process (`cdpvisor watchdog`)
// with the coordinator, before any browser exists, and tells it of every
// launch before its spawn; the guard's own clean-up; and the start-up
// reaper for what older coordinators left.
package watchdog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Spec configures the WatchdogActor.
type Spec struct {
	Exe       string // the cdpvisor executable that runs `cdpvisor watchdog`
	StateFile string // this coordinator's state file, for the guard to remove
	Log       zerolog.Logger
}

// Actor owns the guard process and the pipe to it. Only this process
// holds the pipe's write end: when the coordinator dies, however (SIGKILL
// included), the guard reads EOF without "bye", ends every browser it was
// told of and removes what the coordinator would have. It implements
// launch.Guard: a launch asks it before spawning a browser.
type Actor struct {
	spec    Spec
	mailbox chan request
	stopped chan struct{} // closed when Serve returns: nobody reads the mailbox after
}

// New makes the actor; its guard process starts when it is served.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, mailbox: make(chan request, 64), stopped: make(chan struct{})}
}

func (w *Actor) String() string { return "watchdog" }

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in handle.
type request interface{ isWatchdogRequest() }

type (
	launching struct {
		f     launch.Facts
		reply chan int
	}
	toGuard    struct{ m message } // spawned, release, downloads
	guardEnded struct{ g *guardProcess }
)

func (launching) isWatchdogRequest()  {}
func (toGuard) isWatchdogRequest()    {}
func (guardEnded) isWatchdogRequest() {}

// Launching implements launch.Guard: the launch is written to the guard's
// pipe before it returns, so the browser spawned next is guarded from its
// first instant.
func (w *Actor) Launching(ctx context.Context, f launch.Facts) (launch.Guarded, error) {
	ctx, cancel := w.whileServed(ctx)
	defer cancel()
	id, err := actor.Ask(ctx, w.mailbox, func(reply chan int) request { return launching{f: f, reply: reply} })
	if err != nil {
		return nil, fmt.Errorf("the watchdog is not running: %w", err)
	}
	return guarded{w: w, id: id}, nil
}

// Downloads has the guard clear dir of partial downloads if the
// coordinator dies (and remove it when empty, if tidy).
func (w *Actor) Downloads(dir string, tidy bool) {
	w.tell(message{Op: opDownloads, Dir: dir, Tidy: tidy})
}

// tell queues m for the guard; after Serve there is no guard to tell.
func (w *Actor) tell(m message) {
	select {
	case w.mailbox <- toGuard{m}:
	case <-w.stopped:
	}
}

// whileServed is ctx, ended too when Serve returns.
func (w *Actor) whileServed(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() { // owned: ends with ctx, which the caller cancels on return
		select {
		case <-w.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// guarded is one launch the guard holds.
type guarded struct {
	w  *Actor
	id int
}

func (g guarded) Spawned(id proc.BrowserIdentity) {
	g.w.tell(message{Op: opSpawned, ID: g.id, Browser: &id})
}

func (g guarded) Release() { g.w.tell(message{Op: opRelease, ID: g.id}) }

// shutdownWait bounds how long a stopping coordinator waits for its
// browsers to be stopped before leaving the rest to the guard.
const shutdownWait = 20 * time.Second

// Serve starts the guard process and feeds it until ctx is done; then it
// waits for the browsers to be stopped, says bye and lets the guard go. A
// guard that dies meanwhile is started again and told everything it held.
func (w *Actor) Serve(ctx context.Context) error {
	defer close(w.stopped)
	t := &table{launches: map[int]message{}}
	g := w.startGuard(t)
	defer func() { g.close(t.empty()) }()
	done := ctx.Done()
	var deadline <-chan time.Time // set once ctx is done: the loop then waits for releases
	for {
		if deadline != nil && t.empty() {
			return ctx.Err()
		}
		select {
		case msg := <-w.mailbox:
			g = w.handle(msg, t, g)
		case <-done:
			done, deadline = nil, time.After(shutdownWait)
		case <-deadline:
			w.spec.Log.Warn().Int("launches", len(t.launches)).Msg("browsers not stopped in time: the watchdog ends them")
			return ctx.Err()
		}
	}
}

func (w *Actor) handle(msg request, t *table, g *guardProcess) *guardProcess {
	switch msg := msg.(type) {
	case launching:
		t.last++
		m := message{Op: opLaunch, ID: t.last, TempDir: msg.f.TempDir, Profile: msg.f.UserDataDir,
			TempProfile: msg.f.TempProfile, Windows: msg.f.Browser.Windows}
		t.launches[m.ID] = m
		g.send(m)
		msg.reply <- m.ID
	case toGuard:
		t.record(msg.m)
		g.send(msg.m)
	case guardEnded:
		if msg.g == g && !g.closing {
			w.spec.Log.Error().Msg("the watchdog process ended; starting it again")
			return w.startGuard(t)
		}
	default:
		// Loud, but no panic (actor.Unknown): Serve is not made to run
		// twice (it closes stopped), and its end lets the guard go without
		// bye, which ends every browser.
		w.spec.Log.Error().Str("actor", w.String()).Str("messageType", fmt.Sprintf("%T", msg)).
			Msg("an actor got a message it has no case for")
	}
	return g
}

// table is what the guard holds, to tell a restarted one.
type table struct {
	last     int
	launches map[int]message // by id: the launch, then its latest spawned
	folders  []message
}

func (t *table) record(m message) {
	switch m.Op {
	case opSpawned:
		if l, ok := t.launches[m.ID]; ok {
			l.Browser = m.Browser
			t.launches[m.ID] = l
		}
	case opRelease:
		delete(t.launches, m.ID)
	case opDownloads:
		t.folders = append(t.folders, m)
	}
}

func (t *table) empty() bool { return len(t.launches) == 0 }

// replay is what a new guard must be told: each held launch (as one
// launch line and its latest spawned line) and each folder.
func (t *table) replay() []message {
	var out []message
	for _, l := range t.launches {
		launchOnly := l
		launchOnly.Browser = nil
		out = append(out, launchOnly)
		if l.Browser != nil {
			out = append(out, message{Op: opSpawned, ID: l.ID, Browser: l.Browser})
		}
	}
	return append(out, t.folders...)
}

// guardProcess is one running `cdpvisor watchdog`.
type guardProcess struct {
	cmd     *exec.Cmd
	pipe    *os.File // the write end
	done    chan struct{}
	closing bool
	log     zerolog.Logger
}

// startGuard starts the guard process and tells it what t holds. Without
// one (no executable), launches go unguarded, as the log says.
func (w *Actor) startGuard(t *table) *guardProcess {
	spec := GuardSpec{CoordinatorPID: os.Getpid(), StateFile: w.spec.StateFile, TempRoot: launch.TempRoot()}
	g := &guardProcess{done: make(chan struct{}), log: w.spec.Log}
	r, pw, err := os.Pipe()
	if err == nil {
		g.cmd = exec.Command(w.spec.Exe, append([]string{"watchdog"}, spec.Args()...)...)
		g.cmd.ExtraFiles = []*os.File{r} // fd 3 in the guard
		g.cmd.SysProcAttr = detachedProcAttr()
		err = g.cmd.Start()
		r.Close()
	}
	if err != nil {
		if pw != nil {
			pw.Close()
		}
		close(g.done)
		g.closing = true
		w.spec.Log.Error().Err(err).Msg("no watchdog process: a browser may outlive a killed coordinator")
		return g
	}
	g.pipe = pw
	go func() { // owned: reaps the guard, and tells the actor when it ends
		_ = g.cmd.Wait()
		close(g.done)
		select {
		case w.mailbox <- guardEnded{g}:
		case <-w.stopped:
		}
	}()
	w.spec.Log.Debug().Int("watchdog", g.cmd.Process.Pid).Msg("watchdog started")
	for _, m := range t.replay() {
		g.send(m)
	}
	return g
}

func (g *guardProcess) send(m message) {
	if g.pipe == nil {
		return
	}
	if _, err := g.pipe.Write(m.line()); err != nil {
		g.log.Warn().Err(err).Str("op", string(m.Op)).Msg("the watchdog did not hear")
	}
}

// close lets the guard go: with bye when everything was handled, without
// (it cleans up what is left) when not.
func (g *guardProcess) close(handled bool) {
	if g.pipe == nil {
		return
	}
	g.closing = true
	if handled {
		g.send(message{Op: opBye})
	}
	g.pipe.Close()
	select {
	case <-g.done:
	case <-time.After(10 * time.Second):
		_ = g.cmd.Process.Kill()
		<-g.done
	}
}
