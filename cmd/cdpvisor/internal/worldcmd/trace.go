package worldcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/wholefile"
)

// checkTrace refuses trace's --since and --format before anything is
// looked for.
func checkTrace(o Options) error {
	if _, err := traceSince(o.Since, time.Now()); err != nil {
		return usage(err)
	}
	switch o.Format {
	case "", worldapi.FormatTrace, worldapi.FormatWebM:
		return nil
	}
	return usage(fmt.Errorf("--format %q: want %s (a Playwright trace, the default) or %s (a video)", o.Format, worldapi.FormatTrace, worldapi.FormatWebM))
}

// traceSince reads trace's --since: an RFC 3339 time, or a duration
// before now (10m, 1h30m); "" is the whole recording.
func traceSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("--since %q: want an RFC 3339 time (2026-11-27T11:00:00Z) or how long ago (10m, 1h30m)", s)
	}
	return now.Add(-d), nil
}

// writeTrace is `world trace NAME [--since S] [--output FILE] [--format F]`:
// the world's recording written whole to FILE (by default
// NAME-YYYYMMDD-HHMMSS.zip, or .webm, here), its path on stdout; with
// --output -, the recording itself on stdout. A line on stderr says what
// was written.
func writeTrace(ctx context.Context, t state.Target, o Options, now time.Time, stdout, stderr io.Writer) error {
	since, err := traceSince(o.Since, now)
	if err != nil {
		return usage(err)
	}
	q := worldapi.TraceQuery{Since: since, Format: o.Format}
	get := func(w io.Writer) (int64, error) { return worldapi.Trace(ctx, t.Endpoint, o.Name, q, w) }
	path := o.Output
	if path == "" {
		path = TraceFileName(o.Name, o.Format, now)
	}
	var n int64
	if path == "-" {
		n, err = get(stdout)
	} else {
		n, err = wholefile.Write(path, get)
	}
	if err != nil {
		return traceError(t, o.Name, path, err)
	}
	what := "Playwright trace; open it with: npx playwright show-trace " + path
	if o.Format == worldapi.FormatWebM {
		what = "video"
	}
	if path == "-" {
		fmt.Fprintf(stderr, "cdpvisor world: wrote world %s's recording to stdout: %s (%s)\n", o.Name, byteSize(n), what)
		return nil
	}
	fmt.Fprintf(stderr, "cdpvisor world: wrote world %s's recording to %s: %s (%s)\n", o.Name, path, byteSize(n), what)
	_, err = fmt.Fprintln(stdout, path)
	return err
}

// TraceFileName is a world's recording's file when --output is not given:
// NAME-YYYYMMDD-HHMMSS.zip (.webm for a video), in local time.
func TraceFileName(name, format string, at time.Time) string {
	ext := ".zip"
	if format == worldapi.FormatWebM {
		ext = ".webm"
	}
	return name + "-" + at.Local().Format("20060102-150405") + ext
}

// traceError words a recording that could not be written.
func traceError(t state.Target, name, path string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.Is(err, worldapi.ErrNotRecorded):
		return remedy.With(fmt.Errorf("world %s of %s: %w", name, who(t), err),
			remedy.Say("open it with 'cdpvisor world open "+name+" --record', or run the coordinator with --record; what happens from then on is recorded"))
	case errors.As(err, &pe), errors.As(err, &le):
		return fmt.Errorf("--output %s: %w", path, err)
	}
	return asked(t, err)
}
