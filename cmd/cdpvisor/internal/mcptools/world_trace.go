package mcptools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/wholefile"
)

// A world's recording through browser_context: open's record switch and
// the trace action, which writes the recording into a file of the
// coordinator's (TracesDir) and answers its path: a model hands a person
// the file, it does not carry a zip in its context.

// recordParams are browser_context's arguments of the recordings.
var recordParams = []param{
	{name: "record", want: "a boolean", schema: map[string]any{"type": "boolean",
		"description": "For open: true records the world from now on (its pages' frames, navigations, console, network without bodies, and its clients' commands " +
			"without typed or evaluated text), kept privately by the coordinator and bounded; trace writes it. false stops a world's recording, " +
			"also when the coordinator records every world. A named world keeps its switch. Left out: as it was, or as the coordinator's setting says."}},
	{name: "format", want: "a string: trace or webm", schema: map[string]any{"type": "string", "enum": []string{worldapi.FormatTrace, worldapi.FormatWebM},
		"description": "For trace, what is written: trace = a Playwright trace (the default), a zip to open with npx playwright show-trace FILE; " +
			"webm = a video of the world's pages (the coordinator needs ffmpeg)."}},
}

// recordWorld gives the world called name its record switch once it is
// open, as an HTTP open's body does (the features' hooks), and sets ws's
// Recorded from the world's status read again.
func recordWorld(ctx context.Context, d deps, id, name string, on *bool, ws *worldapi.Status) error {
	if on == nil {
		return nil
	}
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return err
	}
	if err := w.Asked(ctx, name, worldapi.OpenRequest{Record: on}); err != nil {
		return fmt.Errorf("world %s is open, but its record switch could not be set: %w", name, err)
	}
	list, err := w.WorldStatuses(ctx)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Name == name {
			ws.Recorded = s.Recorded
		}
	}
	return nil
}

// recordNote says, in open's text, what became of the record switch.
func recordNote(on *bool, ws worldapi.Status) string {
	switch {
	case on == nil && !ws.Recorded:
		return ""
	case ws.Recorded:
		return "; recorded (browser_context trace writes its recording)"
	case *on:
		return "; record was asked, but the coordinator does not say it records the world (its recorder may not be running)"
	}
	return "; not recorded"
}

// worldTraceAnswer is browser_context trace's structured answer. Fields
// in the order of their JSON names.
type worldTraceAnswer struct {
	Bytes    int64  `json:"bytes"`
	Format   string `json:"format"`
	Instance string `json:"instance"`
	Path     string `json:"path"`
	World    string `json:"world"`
}

// traceWorld is browser_context trace: the world's recording (after
// since) written whole to NAME-YYYYMMDDTHHMMSSZ.zip (.webm) in the
// coordinator's traces folder, private (0700, 0600).
func traceWorld(ctx context.Context, d deps, tool, id, name string, since any, format *string) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	q, err := traceQuery(since, format)
	if err != nil {
		return toolError(tool, err)
	}
	now := time.Now().UTC()
	dir := d.c.TracesDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return toolError(tool, fmt.Errorf("the traces folder: %w", err))
	}
	ext := ".zip"
	if q.Format == worldapi.FormatWebM {
		ext = ".webm"
	}
	path := filepath.Join(dir, name+"-"+now.Format("20060102T150405Z")+ext)
	n, err := writeWhole(path, func(w io.Writer) error { return d.c.WorldTrace(ctx, id, name, q, w) })
	if err != nil {
		if errors.Is(err, worldapi.ErrNotRecorded) {
			err = remedy.With(fmt.Errorf("world %s of instance %s: %w", name, id, err),
				remedy.Say("open it with browser_context open and record: true, or have your MCP host start the coordinator with CDPVISOR_RECORD=1 "+
					"in its environment; what happens from then on is recorded"))
		}
		return toolError(tool, err)
	}
	text := fmt.Sprintf("wrote world %s's recording (a Playwright trace, %d bytes) to %s; a person opens it with: npx playwright show-trace %s", name, n, path, path)
	if q.Format == worldapi.FormatWebM {
		text = fmt.Sprintf("wrote world %s's recording (a video, %d bytes) to %s", name, n, path)
	}
	return result(worldTraceAnswer{Bytes: n, Format: q.Format, Instance: id, Path: path, World: name}, text)
}

// traceQuery reads trace's since (an RFC 3339 time) and format.
func traceQuery(since any, format *string) (worldapi.TraceQuery, error) {
	q := worldapi.TraceQuery{Format: worldapi.FormatTrace}
	if format != nil {
		switch *format {
		case worldapi.FormatTrace, worldapi.FormatWebM:
			q.Format = *format
		default:
			return q, fmt.Errorf("format %q: want %s (a Playwright trace, the default) or %s (a video)", *format, worldapi.FormatTrace, worldapi.FormatWebM)
		}
	}
	switch s := since.(type) {
	case nil:
	case string:
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return q, fmt.Errorf("since %q: for trace, an RFC 3339 time, e.g. 2026-11-27T11:00:00Z", s)
		}
		q.Since = t
	default:
		return q, fmt.Errorf("since %v: for trace, an RFC 3339 time (a string), e.g. 2026-11-27T11:00:00Z; an entry's seq is journal's", since)
	}
	return q, nil
}

// writeWhole writes what write gives to path, whole or not at all
// (wholefile.Write), and counts it.
func writeWhole(path string, write func(io.Writer) error) (int64, error) {
	return wholefile.Write(path, func(w io.Writer) (int64, error) {
		c := &counter{w: w}
		err := write(c)
		return c.n, err
	})
}

// counter counts what is written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
