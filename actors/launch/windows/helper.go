package windows

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// helper is one running relay.ps1: its stdio are pipes of cdpvisor's own
// (not exec's, whose Wait would close stdout under a reader). It ends when
// cdpvisor closes its stdin, when the browser's websocket closes, or when
// cdpvisor dies (its stdin then reads EOF).
type helper struct {
	cmd    *exec.Cmd
	stdin  *os.File // cdpvisor's write end
	stdout *os.File // cdpvisor's read end
	stderr *headBuffer
	done   chan struct{} // closed once the process has exited and been reaped
	once   sync.Once
}

// helperExitWait is how long a helper gets to close the browser's
// websocket after its stdin closed, before it is killed.
const helperExitWait = 3 * time.Second

func startHelper(ps wsl.PowerShell, url string) (*helper, error) {
	// Not bound to the dial's context: the relay outlives the request.
	cmd, err := ps.Command(context.Background(), wsl.ScriptRelay, wsl.Param{Name: "Url", Value: url})
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	h := &helper{cmd: cmd, stdin: inW, stdout: outR, stderr: &headBuffer{max: 4 << 10}, done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, h.stderr
	err = cmd.Start()
	inR.Close() // the helper holds them now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	go func() { // owned by the helper: ends when the process exits
		_ = cmd.Wait()
		close(h.done)
	}()
	return h, nil
}

// close ends the helper: its stdin closes (it closes the browser's
// websocket and exits), it is killed if it does not exit in time, and it is
// reaped before close returns. Safe to call more than once.
func (h *helper) close() error {
	h.once.Do(func() {
		h.stdin.Close()
		t := time.NewTimer(helperExitWait)
		select {
		case <-h.done:
		case <-t.C:
			_ = h.cmd.Process.Kill()
			<-h.done
		}
		t.Stop()
		h.stdout.Close() // a reader still blocked gets an error
	})
	return nil
}

// headBuffer keeps the first max bytes written to it (a script's error message).
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.b.Len(); room > 0 {
		t.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}
