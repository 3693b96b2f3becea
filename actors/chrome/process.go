package chrome

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Readiness and shutdown limits of the design page.
const (
	ReadyTimeout   = 15 * time.Second
	readyPoll      = 100 * time.Millisecond
	readyPollFirst = 10 * time.Millisecond // for the first readyFastFor after the DevTools line
	readyFastFor   = 200 * time.Millisecond
	StopGrace      = 5 * time.Second
	killWait       = 5 * time.Second
	groupWait      = 2 * time.Second
)

// TempPrefix starts the name of every temporary directory a launch creates,
// followed by the coordinator's pid, so a reaper can tell whose it was.
const TempPrefix = "cdpv-"

// Process is one running browser and everything its launch created. Its
// owner (a BrowserActor) calls Stop exactly when it is done with it, after a
// planned stop or an unplanned exit alike.
type Process struct {
	Facts

	fam     *family // nil when attached
	scratch string  // the launch's own temporary directory
	cmd     *exec.Cmd
	stderr  *stderrWatcher
	stderrR *os.File
	exited  chan struct{}
	exitErr error
	grace   time.Duration

	stopOnce sync.Once
	stopErr  error
	stopPoll chan struct{} // attached: ends the liveness poll
}

// Facts are what a launch found out about its browser.
type Facts struct {
	Browser     Browser
	Args        []string
	Pid         int
	WSURL       string // the browser websocket URL it announced
	HostPort    string // host:port of its debugging endpoint
	Port        int
	UserDataDir string
	TempProfile bool   // UserDataDir was created by cdpvisor and is removed by Stop
	TempDir     string // the launch's own temporary directory ("" when attached)
	Attached    bool   // cdpvisor found it running: it is never killed, its profile never removed
	// WindowsPid is a Windows browser's pid (cdpvisor inside WSL); Pid is 0
	// then: the browser has no Linux pid.
	WindowsPid int
	// Reach is how its debugging port is reached: nil directly, else
	// through a helper (a Windows browser under WSL's NAT networking).
	Reach Reach
}

// Describe returns the facts of the launch.
func (p *Process) Describe() Facts { return p.Facts }

// Identity is what tells this browser from a process that reuses its pid
// later (for the watchdog and the reaper): its resolved executable, profile
// and mode. Headless is taken from its command line.
func (p *Process) Identity() BrowserIdentity {
	exe := p.Browser.Path
	if info, err := ProcessInfo(p.Pid); err == nil && info.Exe != "" {
		exe = info.Exe // e.g. /usr/lib/chromium/chromium behind Debian's wrapper script
	}
	_, headless := FlagValue(p.Args, "headless")
	return BrowserIdentity{Pid: p.Pid, Exe: exe, UserDataDir: p.UserDataDir, Headless: headless}
}

// Exited is closed when the browser process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr is the process's exit status; valid once Exited is closed.
func (p *Process) ExitErr() error { return p.exitErr }

// ExitCode is the exit code, or -1 when it died of a signal or still runs.
func (p *Process) ExitCode() int {
	if p.Attached {
		return -1
	}
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	default:
		return -1
	}
}

// StderrTail returns the last lines the browser wrote to stderr.
func (p *Process) StderrTail() []string {
	if p.stderr == nil {
		return nil
	}
	return p.stderr.lines()
}

// Start launches a Chromium-family browser and returns once it is ready:
// the DevTools line was seen and /json/version answers. On failure nothing
// is left behind: the process group is ended and the temporary directories
// are removed. onStderr, when not nil, sees every stderr line (for debug logs).
func Start(ctx context.Context, opts LaunchOptions, onStderr func(string)) (*Process, error) {
	return start(ctx, opts, onStderr, chromiumFamily)
}

func start(ctx context.Context, opts LaunchOptions, onStderr func(string), fam *family) (*Process, error) {
	scratch, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", TempPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("create a temporary directory for the browser: %w", err)
	}
	p := &Process{Facts: Facts{Browser: opts.Browser, UserDataDir: opts.UserDataDir, TempDir: scratch}, fam: fam, scratch: scratch, exited: make(chan struct{}), grace: orDefault(opts.StopGrace, StopGrace)}
	if p.UserDataDir == "" {
		p.UserDataDir = filepath.Join(scratch, "profile")
		p.TempProfile = true
	}
	if fam.prepare != nil {
		if err := fam.prepare(p.UserDataDir, p.TempProfile); err != nil {
			_ = os.RemoveAll(scratch)
			return nil, fmt.Errorf("prepare the profile %s: %w", p.UserDataDir, err)
		}
	}
	if err := p.spawn(opts, onStderr); err != nil {
		_ = os.RemoveAll(scratch)
		return nil, err
	}
	if err := p.awaitReady(ctx, orDefault(opts.ReadyTimeout, ReadyTimeout)); err != nil {
		_ = p.Stop()
		return nil, p.launchError(err)
	}
	return p, nil
}

func (p *Process) spawn(opts LaunchOptions, onStderr func(string)) error {
	p.Args = p.fam.args(opts, p.UserDataDir)
	cmd := exec.Command(opts.Browser.Path, p.Args...)
	cmd.Env = append(os.Environ(), p.fam.env...)
	if tmp := filepath.Join(p.scratch, "tmp"); len(tmp) <= maxBrowserTmpDir && os.Mkdir(tmp, 0o700) == nil {
		// Chromium leaves org.chromium.Chromium.* files in $TMPDIR when it
		// is SIGTERMed; keeping them in the scratch dir removes them with it.
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	cmd.SysProcAttr = groupProcAttr()
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("create the browser's stderr pipe: %w", err)
	}
	cmd.Stderr = w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return &LaunchError{Cause: CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: err}
	}
	w.Close() // the browser holds the write end now; EOF comes when its whole group is gone
	p.cmd, p.Pid, p.stderrR = cmd, cmd.Process.Pid, r
	p.stderr = watchStderr(r, p.fam.readyLine, onStderr)
	go func() {
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	return nil
}

// maxBrowserTmpDir keeps Chromium's socket paths under its limit.
const maxBrowserTmpDir = 60

func (p *Process) awaitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	select {
	case announced := <-p.stderr.announced:
		u, err := url.Parse(announced)
		if err != nil {
			return fmt.Errorf("unreadable %s URL %q: %w", p.fam.lineName, announced, err)
		}
		p.WSURL, p.HostPort = p.fam.endpoint(announced), u.Host
		p.Port, _ = strconv.Atoi(u.Port())
	case <-p.exited:
		return errExitedEarly
	case <-deadline.C:
		return fmt.Errorf("%w after %s: no %s line", errTimedOut, timeout, p.fam.lineName)
	case <-ctx.Done():
		return ctx.Err()
	}
	if p.fam.confirm == nil {
		return nil
	}
	return p.fam.confirm(ctx, p, timeout, deadline.C)
}

// awaitJSONVersion is Chromium's second readiness step: /json/version
// answers, which usually follows the line within milliseconds, so it polls
// quickly at first, then every readyPoll.
func awaitJSONVersion(ctx context.Context, p *Process, timeout time.Duration, deadline <-chan time.Time) error {
	interval := readyPollFirst
	started := time.Now()
	tick := time.NewTimer(0)
	defer tick.Stop()
	for {
		if v, ok := readProduct(ctx, p.HostPort); ok {
			if v != "" {
				p.Browser.Version = v // what runs, whatever the executable said before
			}
			return nil
		}
		if time.Since(started) > readyFastFor {
			interval = readyPoll
		}
		tick.Reset(interval)
		select {
		case <-tick.C:
		case <-p.exited:
			return errExitedEarly
		case <-deadline:
			return fmt.Errorf("%w after %s: /json/version on %s did not answer", errTimedOut, timeout, p.HostPort)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

var (
	errExitedEarly = errors.New("exited before it was ready")
	errTimedOut    = errors.New("not ready")
)

// launchError classifies a failed start once the process is gone, so the
// stderr lines are complete.
func (p *Process) launchError(err error) *LaunchError {
	le := &LaunchError{Path: p.Browser.Path, ExitCode: -1, Stderr: p.stderr.lines(), Err: err}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		le.Cause = CauseCancelled
	case errors.Is(err, errTimedOut):
		le.Cause = CauseTimedOut
	default:
		le.Cause = CauseExitedEarly
		le.ExitCode = p.ExitCode()
		le.Err = nil
	}
	if cause, ok := p.fam.classify(le.Stderr); ok && le.Cause != CauseCancelled {
		le.Cause = cause
	}
	return le
}

// Detach lets go of a launched browser that should outlive this process:
// it keeps running in its own process group, on its profile. The temporary
// directory is kept too (the browser may use it as $TMPDIR).
func (p *Process) Detach() {
	p.stopOnce.Do(func() {
		if p.Attached {
			close(p.stopPoll)
			<-p.exited
			return
		}
		p.stderrR.Close() // Chromium ignores SIGPIPE: its later stderr lines are just lost
		<-p.stderr.done
	})
}

// Stop ends the browser: SIGTERM to its group, the actual exit awaited up to
// the stop grace (StopGrace by default), then SIGKILL and another wait; leftovers of the group are
// killed; only then is the launch's temporary directory removed (never a
// profile the user supplied). Safe to call more than once.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() { p.stopErr = p.stop() })
	return p.stopErr
}

func (p *Process) stop() error {
	if p.Attached {
		close(p.stopPoll) // let go; never kill what cdpvisor did not start
		<-p.exited
		return nil
	}
	if !p.WaitExit(0) {
		_ = endGroup(p.Pid, false)
		if !p.WaitExit(p.grace) {
			_ = endGroup(p.Pid, true)
			if !p.WaitExit(killWait) {
				// Keep the profile: deleting it under a live process corrupts it.
				return fmt.Errorf("browser pid %d did not exit after SIGKILL; its profile %s was kept", p.Pid, p.UserDataDir)
			}
		}
	}
	// Helpers (renderers, zygote) may outlive the main process briefly.
	if groupAlive(p.Pid) {
		_ = endGroup(p.Pid, true)
		for end := time.Now().Add(groupWait); groupAlive(p.Pid) && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	// Stop reading stderr even if a stray helper still holds the pipe open.
	p.stderrR.Close()
	<-p.stderr.done
	if err := os.RemoveAll(p.scratch); err != nil {
		return fmt.Errorf("remove the browser's temporary directory: %w", err)
	}
	return nil
}

// WaitExit reports whether the process exits within d (0: has it exited).
func (p *Process) WaitExit(d time.Duration) bool {
	return closedWithin(p.exited, d)
}

// Kill ends the browser's process group at once (SIGKILL), for a browser
// that no longer answers; Stop still has to be called to clean up. An
// attached browser is never killed.
func (p *Process) Kill() error {
	if p.Attached {
		return nil
	}
	return endGroup(p.Pid, true)
}
