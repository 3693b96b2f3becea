package wrapenv

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

// StartError is a command that could not be started, with the shell's
// exit code for it: 127 not found or not executable, 126 else.
type StartError struct {
	Code int
	Err  error
}

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// RunChild runs the command with wrap's stdio, the CDP_* and BIDI_*
// variables and the signals of sigs passed on, and returns its exit code
// (128+N when signal N ended it).
func RunChild(command []string, t state.Target, sigs <-chan os.Signal, stdout, stderr io.Writer, log zerolog.Logger) (int, error) {
	WarnProtocolMismatch(command, t, log)
	argv := Substitute(command, t)
	_, env := Values(t)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	// *os.File values pass straight through as the child's fds 0-2: it
	// speaks MCP on them.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		switch {
		case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
			return 0, &StartError{Code: 127, Err: fmt.Errorf("command not found: %s", argv[0])}
		case errors.Is(err, fs.ErrPermission):
			return 0, &StartError{Code: 127, Err: fmt.Errorf("command not found: %s (not executable)", argv[0])}
		}
		return 0, &StartError{Code: 126, Err: fmt.Errorf("cannot run %s: %w", argv[0], err)}
	}
	log.Debug().Int("pid", cmd.Process.Pid).Strs("argv", argv).Msg("child started")
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for {
		select {
		case sig := <-sigs:
			log.Debug().Str("signal", sig.String()).Msg("passing the signal on to the child")
			if err := forwardSignal(cmd.Process, sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
				log.Warn().Err(err).Str("signal", sig.String()).Msg("could not pass the signal on")
			}
		case err := <-waited:
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return 0, fmt.Errorf("waiting for %s: %w", argv[0], err)
			}
			code := childExitCode(cmd.ProcessState)
			log.Debug().Int("code", code).Msg("child exited")
			return code, nil
		}
	}
}
