package chrome

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome/wsl"
	"github.com/cdpvisor/cdpvisor/transport"
)

// WindowsProcess is a Windows browser that cdpvisor, inside WSL, started
// (or found running) through powershell.exe. It has no Linux pid: its exit
// is learnt from a powershell.exe that waits for its Windows pid, and it is
// stopped with Stop-Process by that pid, because ending the WSL interop
// process would leave the Windows browser running.
type WindowsProcess struct {
	Facts

	ps         wsl.PowerShell
	winProfile string // the profile as Windows names it
	waiter     *exec.Cmd
	exited     chan struct{}
	exitCode   int // -1 when Windows did not tell
	grace      time.Duration

	stopOnce sync.Once
	stopErr  error
	stopPoll chan struct{} // attached: ends the liveness poll
}

// Windows browser limits: a powershell.exe start costs a few hundred
// milliseconds on Windows, and the debugging port is checked from WSL.
const (
	windowsReachWait   = 10 * time.Second       // after DevToolsActivePort, for the port to answer either way
	windowsDirectFirst = 300 * time.Millisecond // 127.0.0.1 alone, before the helper is tried too
	windowsWaitStop    = 5 * time.Second        // for the waiter to report a stopped browser's exit
)

// ErrWindowsLoopback is a Windows browser whose debugging port WSL cannot
// reach on 127.0.0.1: WSL runs with NAT networking.
var ErrWindowsLoopback = errors.New("the Windows browser's debugging port is not reachable from WSL on 127.0.0.1")

// StartOrAttachWindows attaches to a Windows browser already serving the
// user's profile (its DevToolsActivePort answers), and otherwise launches
// one through powershell.exe on opts.UserDataDir or a fresh profile in the
// Windows user's %TEMP%. opts.Browser.Path and opts.UserDataDir are Linux
// paths (the drive mount's); they are translated for Windows here.
func StartOrAttachWindows(ctx context.Context, sys System, opts LaunchOptions, onStderr func(string)) (*WindowsProcess, error) {
	sys = sys.withDefaults()
	mounts := WSLMounts(sys)
	if opts.UserDataDir != "" {
		if p, err := attachWindows(ctx, sys, opts.Browser, opts.UserDataDir); err == nil {
			return p, nil
		}
	}
	if !sys.Exists(opts.Browser.Path) {
		return nil, &LaunchError{Cause: CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: errors.New("no such Windows executable under the drive mount")}
	}
	exe, err := mounts.ToWindows(opts.Browser.Path)
	if err != nil {
		return nil, &LaunchError{Cause: CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: err}
	}
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts)
	if err != nil {
		return nil, fmt.Errorf("start the Windows browser %s: %w", exe, err)
	}
	p := &WindowsProcess{
		Facts: Facts{Browser: opts.Browser, UserDataDir: opts.UserDataDir},
		ps:    ps, exited: make(chan struct{}), exitCode: -1, grace: orDefault(opts.StopGrace, StopGrace),
	}
	if p.UserDataDir == "" {
		// On the Windows side: Chrome on a profile in the Linux file system
		// (\\wsl.localhost\…) is slow and its file locks are unreliable.
		dir, err := ps.Run(ctx, wsl.ScriptTempDir, wsl.Param{Name: "Prefix", Value: windowsTempPrefix(sys)})
		if err != nil {
			return nil, fmt.Errorf("create a temporary profile on the Windows side: %w", err)
		}
		p.winProfile, p.TempProfile = dir, true
		if p.UserDataDir, err = mounts.ToLinux(dir); err != nil {
			p.removeTemp()
			return nil, fmt.Errorf("the temporary profile %s: %w", dir, err)
		}
		p.TempDir = p.UserDataDir
	} else if p.winProfile, err = mounts.ToWindows(p.UserDataDir); err != nil {
		return nil, fmt.Errorf("the profile %s: %w", p.UserDataDir, err)
	} else {
		// A browser that died on the profile leaves its port file behind.
		_ = os.Remove(p.UserDataDir + "/DevToolsActivePort")
	}
	p.Args = windowsArgs(opts, p.winProfile)
	if err := p.spawn(ctx, exe, opts.Headless); err != nil {
		p.removeTemp()
		return nil, err
	}
	if err := p.awaitReady(ctx, orDefault(opts.ReadyTimeout, ReadyTimeout)); err != nil {
		le := p.launchError(err)
		_ = p.Stop()
		return nil, le
	}
	return p, nil
}

// windowsArgs are Chromium's flags for Windows: --no-sandbox is added only
// when the user asks (cdpvisor running as root in Linux says nothing of
// Windows).
func windowsArgs(opts LaunchOptions, profile string) []string {
	args := Args(opts, profile)
	if !slices.Contains(opts.ExtraArgs, "--no-sandbox") {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "--no-sandbox" })
	}
	return args
}

func (p *WindowsProcess) spawn(ctx context.Context, exe string, headless bool) error {
	hidden := 0
	if headless {
		hidden = 1
	}
	out, err := p.ps.Run(ctx, wsl.ScriptStart, wsl.Param{Name: "FilePath", Value: exe},
		wsl.Param{Name: "ArgumentList", Value: wsl.CommandLine(p.Args)}, wsl.Param{Name: "Hidden", Value: hidden})
	if err != nil {
		return fmt.Errorf("start the Windows browser %s: %w", exe, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		return fmt.Errorf("powershell.exe %s printed %q, not the browser's Windows pid", wsl.ScriptStart, out)
	}
	p.WindowsPid = pid
	return p.watch()
}

// watch starts the powershell.exe that waits for the browser's exit.
func (p *WindowsProcess) watch() error {
	cmd, err := p.ps.Command(context.Background(), wsl.ScriptWait, wsl.Param{Name: "Id", Value: p.WindowsPid})
	if err != nil {
		return err
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		_, _ = p.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: p.WindowsPid}, wsl.Param{Name: "TimeoutMs", Value: 0})
		return fmt.Errorf("watch the Windows browser (pid %d) through powershell.exe: %w", p.WindowsPid, err)
	}
	p.waiter = cmd
	go func() {
		_ = cmd.Wait()
		if code, err := strconv.Atoi(strings.TrimSpace(out.String())); err == nil {
			p.exitCode = code
		}
		close(p.exited)
	}()
	return nil
}

// awaitReady waits for the profile's DevToolsActivePort (read through the
// drive mount), then for /json/version on the port, directly or through
// the Windows helper.
func (p *WindowsProcess) awaitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		if port, err := activePort(p.UserDataDir); err == nil {
			p.Port, p.HostPort = port, "127.0.0.1:"+strconv.Itoa(port)
			break
		}
		select {
		case <-tick.C:
		case <-p.exited:
			return errExitedEarly
		case <-deadline.C:
			return fmt.Errorf("%w after %s: no DevToolsActivePort in %s", errTimedOut, timeout, p.winProfile)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return p.awaitReach(ctx, timeout, deadline.C, tick.C)
}

// awaitReach decides, once per launch, how the port is reached: directly
// on 127.0.0.1 (mirrored networking) when /json/version answers there,
// otherwise through the Windows helper (NAT networking), tried once the
// direct path has had windowsDirectFirst to answer.
func (p *WindowsProcess) awaitReach(ctx context.Context, timeout time.Duration, deadline, tick <-chan time.Time) error {
	started := time.Now()
	reach := time.NewTimer(windowsReachWait)
	defer reach.Stop()
	helper := NewWindowsReach(p.ps)
	var helperErr error
	for {
		if ws, err := browserWS(ctx, p.HostPort); err == nil {
			p.WSURL = ws
			if v, ok := readProduct(ctx, p.HostPort); ok && v != "" {
				p.Browser.Version = v
			}
			return nil
		}
		if time.Since(started) >= windowsDirectFirst {
			ws, v, err := readVersion(ctx, HTTPClient(helper, nil), p.HostPort)
			if err == nil {
				p.WSURL, p.Reach = ws, helper
				if v != "" {
					p.Browser.Version = v
				}
				return nil
			}
			helperErr = err
		}
		select {
		case <-tick:
		case <-p.exited:
			return errExitedEarly
		case <-reach.C:
			return fmt.Errorf("%w: port %d answers nothing there (%s), and not through the Windows helper either: %v", ErrWindowsLoopback, p.Port, reachHint(p.HostPort), helperErr)
		case <-deadline:
			return fmt.Errorf("%w after %s: /json/version on %s did not answer", errTimedOut, timeout, p.HostPort)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// reachHint says what a failed dial to the port means.
func reachHint(hostPort string) string {
	c, err := net.DialTimeout("tcp", hostPort, time.Second)
	if err == nil {
		c.Close()
		return "it accepts connections but does not answer /json/version"
	}
	return "WSL's 127.0.0.1 is not Windows' (NAT networking); set networkingMode=mirrored under [wsl2] in %UserProfile%\\.wslconfig and run `wsl --shutdown`, or use a Linux browser"
}

// launchError classifies a failed start once the browser is known gone.
func (p *WindowsProcess) launchError(err error) *LaunchError {
	le := &LaunchError{Path: p.Browser.Path, ExitCode: -1, Err: err}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		le.Cause = CauseCancelled
	case errors.Is(err, ErrWindowsLoopback):
		le.Cause = CauseUnreachable
	case errors.Is(err, errTimedOut):
		le.Cause = CauseTimedOut
	default:
		le.Cause, le.Err = CauseExitedEarly, nil
		le.ExitCode = p.exitCode
		// Chrome hands its arguments to the browser already on the profile
		// and exits at once.
		if others, _ := p.browsersOnProfile(); len(others) > 0 {
			le.Cause = CauseProfileInUse
		}
	}
	return le
}

// browsersOnProfile lists the Windows pids of browsers on this profile.
func (p *WindowsProcess) browsersOnProfile() ([]int, error) {
	return windowsBrowsersOn(p.ps, p.winProfile)
}

// windowsBrowsersOn lists the Windows pids of the main browser processes
// (not their helpers) whose --user-data-dir is profile (a Windows path).
func windowsBrowsersOn(ps wsl.PowerShell, profile string) ([]int, error) {
	found, err := windowsBrowsersWithArgs(ps, profile)
	var out []int
	for _, b := range found {
		out = append(out, b.ProcessId)
	}
	return out, err
}

// Describe returns the facts of the launch.
func (p *WindowsProcess) Describe() Facts { return p.Facts }

// Identity names the browser by profile; it has no Linux pid to verify.
func (p *WindowsProcess) Identity() BrowserIdentity {
	_, headless := FlagValue(p.Args, "headless")
	return BrowserIdentity{Exe: p.Browser.Path, UserDataDir: p.UserDataDir, Headless: headless, WindowsPid: p.WindowsPid, Port: p.Port}
}

// Exited is closed when the browser has exited (or, attached, stopped answering).
func (p *WindowsProcess) Exited() <-chan struct{} { return p.exited }

// WaitExit reports whether the browser exits within d (0: has it exited).
func (p *WindowsProcess) WaitExit(d time.Duration) bool {
	return closedWithin(p.exited, d)
}

// ExitStatus is the exit code Windows reported, if it did.
func (p *WindowsProcess) ExitStatus() ExitStatus {
	if p.Attached || !p.WaitExit(0) {
		return ExitStatus{Code: -1}
	}
	return ExitStatus{Code: p.exitCode}
}

// Kill ends the browser at once (Stop-Process -Force); Stop still follows.
// An attached browser is never killed.
func (p *WindowsProcess) Kill() error {
	if p.Attached || p.WindowsPid == 0 {
		return nil
	}
	_, err := p.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: p.WindowsPid}, wsl.Param{Name: "TimeoutMs", Value: 0})
	return err
}

// Detach lets the browser outlive cdpvisor: only the waiter ends.
func (p *WindowsProcess) Detach() {
	p.stopOnce.Do(func() {
		if p.Attached {
			close(p.stopPoll)
		} else if p.waiter != nil {
			_ = p.waiter.Process.Kill()
		}
		<-p.exited
	})
}

// Stop ends a launched browser as chrome.Process.Stop does on Linux:
// Browser.close (SIGTERM's part) and up to the stop grace for its exit,
// then Stop-Process -Force by its Windows pid (SIGKILL's), then removes the
// temporary profile on the Windows side. An attached one is only let go.
// Safe to call more than once.
func (p *WindowsProcess) Stop() error {
	p.stopOnce.Do(func() { p.stopErr = p.stop() })
	return p.stopErr
}

func (p *WindowsProcess) stop() error {
	if p.Attached {
		close(p.stopPoll)
		<-p.exited
		return nil
	}
	if p.waiter != nil && !p.WaitExit(0) && p.closeGracefully() {
		return p.removeTemp()
	}
	if p.waiter != nil && !p.WaitExit(0) {
		out, err := p.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: p.WindowsPid},
			wsl.Param{Name: "TimeoutMs", Value: int(windowsWaitStop / time.Millisecond)})
		if err != nil {
			return fmt.Errorf("stop the Windows browser (pid %d): %w; its profile %s was kept", p.WindowsPid, err, p.winProfile)
		}
		if out == "running" || !p.WaitExit(windowsWaitStop) {
			// Keep the profile: deleting it under a live browser corrupts it.
			return fmt.Errorf("the Windows browser (pid %d) did not exit after Stop-Process; its profile %s was kept", p.WindowsPid, p.winProfile)
		}
	}
	return p.removeTemp()
}

// closeGracefully asks the browser to close (CDP Browser.close) and
// reports whether it exited within the stop grace, as SIGTERM is tried
// before SIGKILL on Linux. A browser that cannot be asked is not waited for.
func (p *WindowsProcess) closeGracefully() bool {
	if p.WSURL == "" {
		return false
	}
	if err := closeByCDP(p.WSURL, p.Reach); err != nil && !errors.Is(err, errCloseUnanswered) {
		return false
	}
	return p.WaitExit(p.grace)
}

// removeTemp removes the temporary profile on the Windows side (Windows
// unlocks a dead browser's files with a delay the script waits out), and
// through the drive mount should the script fail.
func (p *WindowsProcess) removeTemp() error {
	if !p.TempProfile || p.winProfile == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := p.ps.Run(ctx, wsl.ScriptRemove, wsl.Param{Name: "Path", Value: p.winProfile}, wsl.Param{Name: "Prefix", Value: TempPrefix})
	if err != nil && p.UserDataDir != "" {
		if rmErr := os.RemoveAll(p.UserDataDir); rmErr == nil {
			return nil
		}
		return fmt.Errorf("remove the temporary profile %s: %w", p.winProfile, err)
	}
	return nil
}

// attachWindows connects to a Windows browser already running on the
// profile (a Linux path through the drive mount): directly when WSL reaches
// its port, else through the Windows helper when powershell.exe is there.
func attachWindows(ctx context.Context, sys System, browser Browser, profile string) (*WindowsProcess, error) {
	port, err := activePort(profile)
	if err != nil {
		return nil, err
	}
	hostPort := "127.0.0.1:" + strconv.Itoa(port)
	var reach Reach
	ws, err := browserWS(ctx, hostPort)
	if err != nil {
		ps, psErr := wsl.FindPowerShell(sys.LookPath, sys.Exists, WSLMounts(sys))
		if psErr != nil {
			return nil, fmt.Errorf("the Windows browser on %s (port %d) does not answer: %w", profile, port, err)
		}
		reach = NewWindowsReach(ps)
		if ws, err = browserWSVia(ctx, HTTPClient(reach, nil), hostPort); err != nil {
			return nil, fmt.Errorf("the Windows browser on %s (port %d) does not answer, directly or through the Windows helper: %w", profile, port, err)
		}
	}
	p := &WindowsProcess{
		Facts:  Facts{Browser: browser, WSURL: ws, HostPort: hostPort, Port: port, UserDataDir: profile, Attached: true, Reach: reach},
		exited: make(chan struct{}), stopPoll: make(chan struct{}), exitCode: -1,
	}
	go p.pollAttached()
	return p, nil
}

// pollAttached closes exited once the attached browser is gone, or when
// Stop lets go of it. Reached directly, /json/version is asked every
// attachPoll, as for a Linux browser; through the Windows helper, where each
// request would start a powershell.exe, one websocket is held open instead
// and its end is the browser's.
func (p *WindowsProcess) pollAttached() {
	defer close(p.exited)
	if p.Reach != nil {
		p.watchBySocket()
		return
	}
	pollUntilSilent(p.stopPoll, p.HostPort)
}

// watchBySocket returns when the browser's websocket (through the helper)
// ends, or when Stop lets go.
func (p *WindowsProcess) watchBySocket() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // ends the dial if Stop comes first
		select {
		case <-p.stopPoll:
			cancel()
		case <-ctx.Done():
		}
	}()
	defer cancel()
	conn, err := DialWebSocket(ctx, p.Reach, p.WSURL, 1<<20)
	if err != nil {
		return
	}
	ended := make(chan struct{})
	go func() { // owned: ends when conn closes
		defer close(ended)
		m := transport.NewMessage()
		defer m.Release()
		for conn.Read(m) == nil {
		}
	}()
	select {
	case <-ended:
	case <-p.stopPoll:
	}
	conn.Close(1000, "")
	<-ended
}
