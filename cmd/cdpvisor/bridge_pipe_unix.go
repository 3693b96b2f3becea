//go:build !windows

package main

import (
	"errors"
	"os"
	"syscall"

	"github.com/cdpvisor/cdpvisor/transport"
)

// openToolPipe takes fds 3 (commands in) and 4 (answers out) the way
// Chromium does for --remote-debugging-pipe. They must be pipes or sockets
// a tool passed: anything else means the tool did not set them up.
func openToolPipe() (*transport.PipeConn, error) {
	// Non-blocking first, so Go polls them and Close ends a pending Read:
	// the bridge must be able to exit while the tool still holds its ends.
	_ = syscall.SetNonblock(3, true)
	_ = syscall.SetNonblock(4, true)
	in, out := os.NewFile(3, "pipe-in"), os.NewFile(4, "pipe-out")
	if !isPipe(in) || !isPipe(out) {
		return nil, errors.New("bridge: --remote-debugging-pipe was given but file descriptors 3 and 4 are not open pipes; " +
			"the tool must pass them (Puppeteer pipe: true, Playwright) or use --remote-debugging-port")
	}
	return transport.NewPipeConn(in, out, func() error {
		in.Close()
		return out.Close()
	}), nil
}

func isPipe(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}
