package main

import (
	"io"
	"time"

	"github.com/rs/zerolog"
)

// newLogger builds the stderr logger; stdout never carries logs.
func newLogger(stderr io.Writer, level, format string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), usageErr("--log-level %q: want trace, debug, info, warn, error or disabled", level)
	}
	var w io.Writer
	switch format {
	case "json":
		w = stderr
	case "console":
		w = zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.TimeOnly}
	default:
		return zerolog.Nop(), usageErr("--log-format %q: want json or console", format)
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}
