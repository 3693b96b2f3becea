package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// logTime is RFC 3339 with milliseconds, in both formats.
const logTime = "2006-01-02T15:04:05.000Z07:00"

// newLogger builds the stderr logger; stdout never carries logs. The
// console format has colours only on a terminal, and never with NO_COLOR.
func newLogger(stderr io.Writer, level, format string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Nop(), usageErr("--log-level %q: want trace, debug, info, warn, error or disabled", level)
	}
	zerolog.TimeFieldFormat = logTime
	if lvl < zerolog.GlobalLevel() {
		zerolog.SetGlobalLevel(lvl) // the global level starts at debug: trace needs it lowered
	}
	var w io.Writer
	switch format {
	case "json":
		w = stderr
	case "console":
		w = zerolog.ConsoleWriter{Out: stderr, TimeFormat: logTime, NoColor: !colorful(stderr)}
	default:
		return zerolog.Nop(), usageErr("--log-format %q: want json or console", format)
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}

// colorful: a terminal, and the user did not ask for NO_COLOR.
func colorful(w io.Writer) bool {
	if _, no := os.LookupEnv("NO_COLOR"); no {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
