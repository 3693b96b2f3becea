package launch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/transport"
)

// child is the Host of a browser cdpvisor spawned on this machine, in a
// process group of its own, with a temporary directory of its launch.
type child struct {
	fam     *Family
	scratch string // the launch's own temporary directory
	cmd     *exec.Cmd
	stderr  *stderrWatcher
	stderrR *os.File
	exited  chan struct{}
	exitErr error
	grace   time.Duration
	// The debugging pipe of a piped launch: cdpvisor's ends, until the
	// family's connection takes them over (closeConn then ends it).
	pipe      *transport.PipeConn
	closeConn func()
}

// Start launches a browser of family fam and returns once it is ready
// (fam's readiness line, then fam.Confirm). On failure nothing is left
// behind: the process group is ended and the temporary directories are
// removed. onStderr, when not nil, sees every stderr line (for debug logs).
func Start(ctx context.Context, opts Options, onStderr func(string), fam *Family) (*Process, error) {
	p, c, err := guardedScratch(ctx, opts, fam)
	if err != nil {
		return nil, err
	}
	if fam.Prepare != nil {
		if err := fam.Prepare(p.UserDataDir, p.TempProfile); err != nil {
			_ = os.RemoveAll(c.scratch)
			p.ReleaseGuard()
			return nil, fmt.Errorf("prepare the profile %s: %w", p.UserDataDir, err)
		}
	}
	if err := c.spawn(&p.Facts, opts, onStderr); err != nil {
		_ = os.RemoveAll(c.scratch)
		p.ReleaseGuard()
		return nil, err
	}
	p.GuardSpawned()
	if err := c.awaitReady(ctx, p, opts); err != nil {
		_ = p.Stop()
		return nil, c.launchError(p.Facts, err)
	}
	p.GuardSpawned()
	return p, nil
}

// guardedScratch makes the launch's temporary directory only once the
// guard holds it: a coordinator killed at any instant of a launch leaves
// nothing the guard does not know of (a directory made first would be
// left by a kill before the guard process exists).
func guardedScratch(ctx context.Context, opts Options, fam *Family) (*Process, *child, error) {
	for range 100 {
		scratch := filepath.Join(TempRoot(), fmt.Sprintf("%s%d-%d", TempPrefix, os.Getpid(), rand.Uint32()))
		c := &child{fam: fam, scratch: scratch, exited: make(chan struct{}), grace: opts.Grace()}
		p := NewProcess(Facts{Browser: opts.Browser, UserDataDir: opts.UserDataDir, TempDir: scratch}, c)
		if p.UserDataDir == "" {
			p.UserDataDir = filepath.Join(scratch, "profile")
			p.TempProfile = true
		}
		if err := p.GuardLaunch(ctx, opts.Guard); err != nil {
			return nil, nil, err
		}
		err := os.Mkdir(scratch, 0o700)
		if err == nil {
			return p, c, nil
		}
		p.ReleaseGuard()
		if !errors.Is(err, fs.ErrExist) {
			return nil, nil, fmt.Errorf("create a temporary directory for the browser: %w", err)
		}
	}
	return nil, nil, fmt.Errorf("create a temporary directory for the browser in %s: %w", TempRoot(), fs.ErrExist)
}

func (c *child) spawn(f *Facts, opts Options, onStderr func(string)) error {
	f.Args = c.fam.Args(opts, f.UserDataDir)
	cmd := exec.Command(opts.Browser.Path, f.Args...)
	cmd.Env = append(append(os.Environ(), c.fam.Env...), LaunchDirEnv+"="+c.scratch)
	if tmp := filepath.Join(c.scratch, "tmp"); len(tmp) <= maxBrowserTmpDir && os.Mkdir(tmp, 0o700) == nil {
		// Chromium leaves org.chromium.Chromium.* files in $TMPDIR when it
		// is SIGTERMed; keeping them in the scratch dir removes them with it.
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	cmd.SysProcAttr = proc.GroupProcAttr()
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("create the browser's stderr pipe: %w", err)
	}
	cmd.Stderr = w
	var browserEnds []*os.File
	if c.piped(opts) {
		if browserEnds, err = c.openPipe(cmd); err != nil {
			r.Close()
			w.Close()
			return err
		}
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		closeAll(browserEnds)
		c.closePipe()
		return &Error{Cause: CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: err}
	}
	w.Close() // the browser holds the write end now; EOF comes when its whole group is gone
	closeAll(browserEnds)
	c.cmd, f.Pid, c.stderrR = cmd, cmd.Process.Pid, r
	c.stderr = watchStderr(r, c.fam.ReadyLine, onStderr)
	go func() { // owned: ends with the browser
		c.exitErr = cmd.Wait()
		close(c.exited)
	}()
	return nil
}

// stderrDrain bounds the wait for the last stderr lines of a browser whose
// group is gone.
const stderrDrain = 500 * time.Millisecond

// maxBrowserTmpDir keeps Chromium's socket paths under its limit.
const maxBrowserTmpDir = 60

func (c *child) awaitReady(ctx context.Context, p *Process, opts Options) error {
	timeout := opts.ReadyLimit()
	if c.pipe != nil {
		return c.awaitPipe(ctx, p, timeout, opts.Log)
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	select {
	case announced := <-c.stderr.announced:
		u, err := url.Parse(announced)
		if err != nil {
			return fmt.Errorf("unreadable %s URL %q: %w", c.fam.LineName, announced, err)
		}
		p.WSURL, p.HostPort = c.fam.Endpoint(announced), u.Host
		p.Port, _ = strconv.Atoi(u.Port())
	case <-c.exited:
		return ErrExitedEarly
	case <-deadline.C:
		return fmt.Errorf("%w after %s: no %s line", ErrTimedOut, timeout, c.fam.LineName)
	case <-ctx.Done():
		return ctx.Err()
	}
	if c.fam.Confirm == nil {
		return nil
	}
	return c.fam.Confirm(ctx, p, timeout, deadline.C)
}

// A launch that failed before the browser was ready, for the families' Confirm.
var (
	ErrExitedEarly = errors.New("exited before it was ready")
	ErrTimedOut    = errors.New("not ready")
	// ErrNotRunning: the browser is not there, and cdpvisor does not start
	// it (the user's own): a client's request fails, the client stays.
	ErrNotRunning = errors.New("the browser is not running, and cdpvisor does not start it")
)

// launchError classifies a failed start once the process is gone, so the
// stderr lines are complete.
func (c *child) launchError(f Facts, err error) *Error {
	le := &Error{Path: f.Browser.Path, ExitCode: -1, Stderr: c.stderr.lines(), Err: err}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		le.Cause = CauseCancelled
	case errors.Is(err, ErrTimedOut):
		le.Cause = CauseTimedOut
	default:
		le.Cause = CauseExitedEarly
		le.ExitCode = c.exitCode()
		le.Err = nil
	}
	if cause, ok := c.fam.Classify(le.Stderr); ok && le.Cause != CauseCancelled {
		le.Cause = cause
	}
	return le
}

// exitCode is the exit code, or -1 when it died of a signal or still runs.
func (c *child) exitCode() int {
	if !ClosedWithin(c.exited, 0) {
		return -1
	}
	return c.cmd.ProcessState.ExitCode()
}

func (c *child) Exited() <-chan struct{} { return c.exited }

func (c *child) ExitStatus() proc.ExitStatus {
	if c.cmd == nil || c.cmd.ProcessState == nil {
		return proc.ExitStatus{Code: -1}
	}
	return proc.ExitStatusOf(c.cmd.ProcessState)
}

func (c *child) Identity(f Facts) proc.BrowserIdentity { return LocalIdentity(f) }

// LocalIdentity names a browser of this machine by its resolved
// executable, profile and mode (headless is taken from its command line).
func LocalIdentity(f Facts) proc.BrowserIdentity {
	exe := f.Browser.Path
	if info, err := proc.ProcessInfo(f.Pid); err == nil && info.Exe != "" {
		exe = info.Exe // e.g. /usr/lib/chromium/chromium behind Debian's wrapper script
	}
	_, headless := proc.FlagValue(f.Args, "headless")
	return proc.BrowserIdentity{Pid: f.Pid, Exe: exe, UserDataDir: f.UserDataDir, Headless: headless}
}

// Kill ends the browser's process group at once (SIGKILL).
func (c *child) Kill() error { return proc.SignalGroup(c.cmd.Process.Pid, true) }

// Detach lets the browser run on in its own process group, on its
// profile. The temporary directory is kept too (it may be its $TMPDIR).
func (c *child) Detach() {
	c.stderrR.Close() // Chromium ignores SIGPIPE: its later stderr lines are just lost
	<-c.stderr.done
}

// Stop: SIGTERM to the group, the actual exit awaited up to the stop
// grace, then SIGKILL and another wait; leftovers of the group are
// killed; only then is the launch's temporary directory removed.
func (c *child) Stop(f Facts) error {
	pid := c.cmd.Process.Pid
	if !ClosedWithin(c.exited, 0) {
		_ = proc.SignalGroup(pid, false)
		if !ClosedWithin(c.exited, c.grace) {
			_ = proc.SignalGroup(pid, true)
			if !ClosedWithin(c.exited, killWait) {
				// Keep the profile: deleting it under a live process corrupts it.
				return fmt.Errorf("browser pid %d did not exit after SIGKILL; its profile %s was kept", pid, f.UserDataDir)
			}
		}
	}
	proc.EndLeftovers(pid)
	c.closePipe()
	// The group is gone: stderr reaches EOF once its last lines are read
	// (a launch error quotes them). Stop reading anyway if a stray helper
	// still holds the pipe open.
	if !ClosedWithin(c.stderr.done, stderrDrain) {
		c.stderrR.Close()
		<-c.stderr.done
	}
	if err := os.RemoveAll(c.scratch); err != nil {
		return fmt.Errorf("remove the browser's temporary directory: %w", err)
	}
	return nil
}
