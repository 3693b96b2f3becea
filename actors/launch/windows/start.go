package windows

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// Windows browser limits: a powershell.exe start costs a few hundred
// milliseconds on Windows, and the debugging port is checked from WSL.
const (
	windowsReachWait   = 10 * time.Second       // after DevToolsActivePort, for the port to answer either way
	windowsDirectFirst = 300 * time.Millisecond // 127.0.0.1 alone, before the helper is tried too
	windowsWaitStop    = 5 * time.Second        // for the waiter to report a stopped browser's exit
	readyPoll          = 100 * time.Millisecond // DevToolsActivePort and the port, until ready
)

// ErrLoopback is a Windows browser whose debugging port WSL cannot
// reach on 127.0.0.1: WSL runs with NAT networking.
var ErrLoopback = errors.New("the Windows browser's debugging port is not reachable from WSL on 127.0.0.1")

// StartOrAttach attaches to a Windows browser already serving the
// user's profile (its DevToolsActivePort answers), and otherwise launches
// one through powershell.exe on opts.UserDataDir or a fresh profile in the
// Windows user's %TEMP%. opts.Browser.Path and opts.UserDataDir are Linux
// paths (the drive mount's); they are translated for Windows here. The
// browser has no Linux pid: its Host learns its exit from a powershell.exe
// that waits for its Windows pid, and stops it with Stop-Process by that
// pid, because ending the WSL interop process would leave it running.
func StartOrAttach(ctx context.Context, sys launch.System, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	sys = sys.WithDefaults()
	mounts := detect.WSLMounts(sys)
	if opts.UserDataDir != "" {
		if p, err := attach(ctx, sys, opts.Browser, opts.UserDataDir); err == nil {
			return p, nil
		}
	}
	if !sys.Exists(opts.Browser.Path) {
		return nil, &launch.Error{Cause: launch.CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: errors.New("no such Windows executable under the drive mount")}
	}
	exe, err := mounts.ToWindows(opts.Browser.Path)
	if err != nil {
		return nil, &launch.Error{Cause: launch.CauseNotFound, Path: opts.Browser.Path, ExitCode: -1, Err: err}
	}
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts)
	if err != nil {
		return nil, fmt.Errorf("start the Windows browser %s: %w", exe, err)
	}
	h := &host{ps: ps, exited: make(chan struct{}), exitCode: -1, grace: opts.Grace()}
	p := launch.NewProcess(launch.Facts{Browser: opts.Browser, UserDataDir: opts.UserDataDir}, h)
	if p.UserDataDir == "" {
		// On the Windows side: Chrome on a profile in the Linux file system
		// (\\wsl.localhost\…) is slow and its file locks are unreliable.
		dir, err := ps.Run(ctx, wsl.ScriptTempDir, wsl.Param{Name: "Prefix", Value: windowsTempPrefix(sys)})
		if err != nil {
			return nil, fmt.Errorf("create a temporary profile on the Windows side: %w", err)
		}
		h.winProfile, p.TempProfile = dir, true
		if p.UserDataDir, err = mounts.ToLinux(dir); err != nil {
			h.removeTemp(p.Facts)
			return nil, fmt.Errorf("the temporary profile %s: %w", dir, err)
		}
		p.TempDir = p.UserDataDir
	} else if h.winProfile, err = mounts.ToWindows(p.UserDataDir); err != nil {
		return nil, fmt.Errorf("the profile %s: %w", p.UserDataDir, err)
	} else {
		// A browser that died on the profile leaves its port file behind.
		_ = os.Remove(p.UserDataDir + "/DevToolsActivePort")
	}
	p.Args = windowsArgs(opts, h.winProfile)
	if err := p.GuardLaunch(ctx, opts.Guard); err != nil {
		h.removeTemp(p.Facts)
		return nil, err
	}
	if err := h.spawn(ctx, p, exe, opts.Headless); err != nil {
		h.removeTemp(p.Facts)
		p.ReleaseGuard()
		return nil, err
	}
	p.GuardSpawned()
	if err := h.awaitReady(ctx, p, opts.ReadyLimit()); err != nil {
		le := h.launchError(p.Browser.Path, err)
		_ = p.Stop()
		return nil, le
	}
	p.GuardSpawned()
	return p, nil
}

// windowsArgs are Chromium's flags for Windows: --no-sandbox is added only
// when the user asks (cdpvisor running as root in Linux says nothing of
// Windows).
func windowsArgs(opts launch.Options, profile string) []string {
	args := chromium.ArgsOnPort(opts, profile)
	if !slices.Contains(opts.ExtraArgs, "--no-sandbox") {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "--no-sandbox" })
	}
	return args
}

func (h *host) spawn(ctx context.Context, p *launch.Process, exe string, headless bool) error {
	hidden := 0
	if headless {
		hidden = 1
	}
	out, err := h.ps.Run(ctx, wsl.ScriptStart, wsl.Param{Name: "FilePath", Value: exe},
		wsl.Param{Name: "ArgumentList", Value: wsl.CommandLine(p.Args)}, wsl.Param{Name: "Hidden", Value: hidden})
	if err != nil {
		return fmt.Errorf("start the Windows browser %s: %w", exe, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		return fmt.Errorf("powershell.exe %s printed %q, not the browser's Windows pid", wsl.ScriptStart, out)
	}
	p.WindowsPid, h.windowsPid = pid, pid
	return h.watch()
}

// awaitReady waits for the profile's DevToolsActivePort (read through the
// drive mount), then for /json/version on the port, directly or through
// the Windows helper.
func (h *host) awaitReady(ctx context.Context, p *launch.Process, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		if port, err := launch.ActivePort(p.UserDataDir); err == nil {
			p.Port, p.HostPort = port, "127.0.0.1:"+strconv.Itoa(port)
			break
		}
		select {
		case <-tick.C:
		case <-h.exited:
			return launch.ErrExitedEarly
		case <-deadline.C:
			return fmt.Errorf("%w after %s: no DevToolsActivePort in %s", launch.ErrTimedOut, timeout, h.winProfile)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return h.awaitReach(ctx, p, timeout, deadline.C, tick.C)
}

// awaitReach decides, once per launch, how the port is reached: directly
// on 127.0.0.1 (mirrored networking) when /json/version answers there,
// otherwise through the Windows helper (NAT networking), tried once the
// direct path has had windowsDirectFirst to answer.
func (h *host) awaitReach(ctx context.Context, p *launch.Process, timeout time.Duration, deadline, tick <-chan time.Time) error {
	started := time.Now()
	reach := time.NewTimer(windowsReachWait)
	defer reach.Stop()
	helper := NewReach(h.ps)
	var helperErr error
	for {
		if ws, err := launch.BrowserWS(ctx, p.HostPort); err == nil {
			p.WSURL = ws
			if v, ok := launch.ReadProduct(ctx, p.HostPort); ok && v != "" {
				p.Browser.Version = v
			}
			return nil
		}
		if time.Since(started) >= windowsDirectFirst {
			ws, v, err := launch.AskVersion(ctx, launch.HTTPClient(helper, nil), p.HostPort)
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
		case <-h.exited:
			return launch.ErrExitedEarly
		case <-reach.C:
			return fmt.Errorf("%w: port %d answers nothing there (%s), and not through the Windows helper either: %v", ErrLoopback, p.Port, reachHint(p.HostPort), helperErr)
		case <-deadline:
			return fmt.Errorf("%w after %s: /json/version on %s did not answer", launch.ErrTimedOut, timeout, p.HostPort)
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
func (h *host) launchError(path string, err error) *launch.Error {
	le := &launch.Error{Path: path, ExitCode: -1, Err: err}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		le.Cause = launch.CauseCancelled
	case errors.Is(err, ErrLoopback):
		le.Cause = launch.CauseUnreachable
	case errors.Is(err, launch.ErrTimedOut):
		le.Cause = launch.CauseTimedOut
	default:
		le.Cause, le.Err = launch.CauseExitedEarly, nil
		le.ExitCode = h.exitCode
		// Chrome hands its arguments to the browser already on the profile
		// and exits at once.
		if others, _ := windowsBrowsersOn(h.ps, h.winProfile); len(others) > 0 {
			le.Cause = launch.CauseProfileInUse
		}
	}
	return le
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
