package actor

import (
	"log"
	"strings"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"
)

// StdLogger routes a standard-library logger (net/http's) into zerolog.
func StdLogger(l zerolog.Logger) *log.Logger {
	return log.New(lineWriter{l}, "", 0)
}

type lineWriter struct{ l zerolog.Logger }

func (w lineWriter) Write(p []byte) (int, error) {
	w.l.Debug().Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}

// SupervisorHook logs suture's events (restarts, panics, stop timeouts).
func SupervisorHook(l zerolog.Logger) suture.EventHook {
	return func(ev suture.Event) {
		l.Warn().Fields(ev.Map()).Msg(ev.String())
	}
}
