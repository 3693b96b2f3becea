package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
	"github.com/rs/zerolog"
)

// piped says whether this launch talks to its browser over the pipe.
func (c *child) piped(opts Options) bool { return c.fam.Pipe != nil && c.fam.Pipe(opts) }

// openPipe gives the browser its fds 3 (what it reads) and 4 (what it
// writes), keeps cdpvisor's ends, and returns the browser's ends, which
// the parent closes once the browser has them.
func (c *child) openPipe(cmd *exec.Cmd) ([]*os.File, error) {
	toBrowser, fromCdpvisor, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create the browser's debugging pipe: %w", err)
	}
	fromBrowser, toCdpvisor, err := os.Pipe()
	if err != nil {
		closeAll([]*os.File{toBrowser, fromCdpvisor})
		return nil, fmt.Errorf("create the browser's debugging pipe: %w", err)
	}
	cmd.ExtraFiles = []*os.File{toBrowser, toCdpvisor} // fd 3 and fd 4
	c.pipe = transport.NewPipeConn(fromBrowser, fromCdpvisor, func() error {
		return errors.Join(fromBrowser.Close(), fromCdpvisor.Close())
	})
	return []*os.File{toBrowser, toCdpvisor}, nil
}

// exitNoticeWait bounds the wait for the exit of a browser whose pipe
// closed during its launch: that is how an early exit shows first.
const exitNoticeWait = 2 * time.Second

// awaitPipe is readiness over the pipe: the family's connection has the
// browser's first answers.
func (c *child) awaitPipe(ctx context.Context, p *Process, timeout time.Duration, log zerolog.Logger) error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	closer, err := c.fam.Connect(cctx, p, c.pipe, log)
	if err == nil {
		c.closeConn = closer
		return nil
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case cctx.Err() != nil:
		return fmt.Errorf("%w after %s: no answer on the debugging pipe", ErrTimedOut, timeout)
	case ClosedWithin(c.exited, exitNoticeWait):
		return ErrExitedEarly
	}
	return err
}

// closePipe ends the connection or, before there was one, closes
// cdpvisor's ends of the pipe.
func (c *child) closePipe() {
	switch {
	case c.closeConn != nil:
		c.closeConn()
	case c.pipe != nil:
		c.pipe.Close(0, "")
	}
}

func closeAll(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
