package windows

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// host is the launch.Host of a Windows browser that cdpvisor, inside WSL,
// started through powershell.exe.
type host struct {
	ps         wsl.PowerShell
	winProfile string // the profile as Windows names it
	windowsPid int
	waiter     *exec.Cmd // the powershell.exe waiting for the browser's exit
	waiterIn   *os.File  // the write end of its stdin: closing it ends the waiter
	exited     chan struct{}
	exitCode   int // -1 when Windows did not tell
	grace      time.Duration
}

func (h *host) Exited() <-chan struct{} { return h.exited }

// ExitStatus is the exit code Windows reported, if it did.
func (h *host) ExitStatus() proc.ExitStatus {
	if !launch.ClosedWithin(h.exited, 0) {
		return proc.ExitStatus{Code: -1}
	}
	return proc.ExitStatus{Code: h.exitCode}
}

// Identity names the browser by profile; it has no Linux pid to verify.
func (h *host) Identity(f launch.Facts) proc.BrowserIdentity { return identity(f) }

func identity(f launch.Facts) proc.BrowserIdentity {
	_, headless := proc.FlagValue(f.Args, "headless")
	return proc.BrowserIdentity{Exe: f.Browser.Path, UserDataDir: f.UserDataDir, Headless: headless, WindowsPid: f.WindowsPid, Port: f.Port}
}

// Kill ends the browser at once (Stop-Process -Force); Stop still follows.
func (h *host) Kill() error {
	if h.windowsPid == 0 {
		return nil
	}
	_, err := h.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: h.windowsPid}, wsl.Param{Name: "TimeoutMs", Value: 0})
	return err
}

// Detach lets the browser outlive cdpvisor: only the waiter ends.
func (h *host) Detach() { h.endWaiter() }

// Stop ends a launched browser as a Linux one is ended: Browser.close
// (SIGTERM's part) and up to the stop grace for its exit, then
// Stop-Process -Force by its Windows pid (SIGKILL's), then removes the
// temporary profile on the Windows side. The waiter ends with Stop even
// when the browser is kept: nothing else would end it.
func (h *host) Stop(f launch.Facts) error {
	defer h.endWaiter()
	if h.waiter != nil && !launch.ClosedWithin(h.exited, 0) && h.closeGracefully(f) {
		return h.removeTemp(f)
	}
	if h.waiter != nil && !launch.ClosedWithin(h.exited, 0) {
		out, err := h.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: h.windowsPid},
			wsl.Param{Name: "TimeoutMs", Value: int(windowsWaitStop / time.Millisecond)})
		if err != nil {
			return fmt.Errorf("stop the Windows browser (pid %d): %w; its profile %s was kept", h.windowsPid, err, h.winProfile)
		}
		if out == "running" || !launch.ClosedWithin(h.exited, windowsWaitStop) {
			// Keep the profile: deleting it under a live browser corrupts it.
			return fmt.Errorf("the Windows browser (pid %d) did not exit after Stop-Process; its profile %s was kept", h.windowsPid, h.winProfile)
		}
	}
	return h.removeTemp(f)
}

// closeGracefully asks the browser to close (CDP Browser.close) and
// reports whether it exited within the stop grace, as SIGTERM is tried
// before SIGKILL on Linux. A browser that cannot be asked is not waited for.
func (h *host) closeGracefully(f launch.Facts) bool {
	if f.WSURL == "" {
		return false
	}
	if err := closeByCDP(f.WSURL, f.Reach); err != nil && !errors.Is(err, errCloseUnanswered) {
		return false
	}
	return launch.ClosedWithin(h.exited, h.grace)
}

// removeTemp removes the temporary profile on the Windows side (Windows
// unlocks a dead browser's files with a delay the script waits out), and
// through the drive mount should the script fail.
func (h *host) removeTemp(f launch.Facts) error {
	if !f.TempProfile || h.winProfile == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := h.ps.Run(ctx, wsl.ScriptRemove, wsl.Param{Name: "Path", Value: h.winProfile}, wsl.Param{Name: "Prefix", Value: launch.TempPrefix})
	if err != nil && f.UserDataDir != "" {
		if rmErr := os.RemoveAll(f.UserDataDir); rmErr == nil {
			return nil
		}
		return fmt.Errorf("remove the temporary profile %s: %w", h.winProfile, err)
	}
	return nil
}
