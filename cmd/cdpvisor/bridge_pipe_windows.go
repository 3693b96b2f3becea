package main

import (
	"errors"

	"github.com/cdpvisor/cdpvisor/transport"
)

// openToolPipe: tools pass the pipe as inherited handles on Windows, which
// the bridge does not read yet.
func openToolPipe() (*transport.PipeConn, error) {
	return nil, errors.New("bridge: --remote-debugging-pipe is not supported on Windows yet; use --remote-debugging-port")
}
