package windows

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// waiterExitWait is how long the waiter gets to exit once its stdin is
// closed, before it is killed.
const waiterExitWait = 3 * time.Second

// watch starts the powershell.exe (wait.ps1) that waits for the browser's
// exit. Its stdin is a pipe whose only write end is this host's: the
// waiter ends when the host closes it (Stop, Detach) and when cdpvisor
// dies, however it dies (the kernel closes it then). Killing it is only
// the last resort: killing the WSL interop process does not reliably end
// the Windows powershell.exe (microsoft/WSL#2151, #3760).
func (h *host) watch() error {
	cmd, in, out, err := startWaiter(h.ps, h.windowsPid)
	if err != nil {
		// A browser nothing would see exit is not kept.
		_, _ = h.ps.Run(context.Background(), wsl.ScriptStop, wsl.Param{Name: "Id", Value: h.windowsPid}, wsl.Param{Name: "TimeoutMs", Value: 0})
		return fmt.Errorf("watch the Windows browser (pid %d) through powershell.exe: %w", h.windowsPid, err)
	}
	h.waiter, h.waiterIn = cmd, in
	go func() { // owned: ends with the browser, or when the host closes the waiter's stdin
		_ = cmd.Wait()
		if code, err := strconv.Atoi(strings.TrimSpace(out.String())); err == nil {
			h.exitCode = code
		}
		close(h.exited)
	}()
	return nil
}

// startWaiter starts wait.ps1 on pid and returns it, the write end of its
// stdin and what it prints.
func startWaiter(ps wsl.PowerShell, pid int) (*exec.Cmd, *os.File, *bytes.Buffer, error) {
	cmd, err := ps.Command(context.Background(), wsl.ScriptWait, wsl.Param{Name: "Id", Value: pid})
	if err != nil {
		return nil, nil, nil, err
	}
	stdin, in, err := os.Pipe() // close-on-exec: no other child of cdpvisor holds the write end
	if err != nil {
		return nil, nil, nil, err
	}
	out := &bytes.Buffer{}
	cmd.Stdin, cmd.Stdout = stdin, out
	err = cmd.Start()
	stdin.Close() // the waiter holds it now
	if err != nil {
		in.Close()
		return nil, nil, nil, err
	}
	return cmd, in, out, nil
}

// endWaiter ends the waiter, if it still runs, and returns once it is
// reaped: Exited is closed then (the exit code stays unknown when the
// browser still runs). For the owner's last call, Stop or Detach.
func (h *host) endWaiter() {
	if h.waiter == nil {
		return
	}
	_ = h.waiterIn.Close()
	if !launch.ClosedWithin(h.exited, waiterExitWait) {
		_ = h.waiter.Process.Kill()
		<-h.exited
	}
}
