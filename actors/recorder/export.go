package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// ErrBadFormat: a trace asked in a format the recorder does not write.
var ErrBadFormat = errors.New("not a recording format: want trace (a Playwright trace) or webm (a video, with ffmpeg)")

// Trace writes the recording of the world called world to out: a
// Playwright trace, or a video (q.Format). What the store holds is read
// as it is written: the actor flushes the world's records first.
func (a *Actor) Trace(ctx context.Context, instance, world string, q worldapi.TraceQuery, out io.Writer) error {
	if err := a.Readable(ctx, world); err != nil {
		return err
	}
	switch q.Format {
	case "", worldapi.FormatTrace:
		return writeTrace(ctx, a.spec.Dir, world, q.Since, out)
	case worldapi.FormatWebM:
		return writeVideo(ctx, a.spec.Dir, world, q.Since, out)
	}
	return fmt.Errorf("%w (format %q)", ErrBadFormat, q.Format)
}

// Readable flushes the world's recording, and says ErrNotRecorded when it
// has none.
func (a *Actor) Readable(ctx context.Context, world string) error {
	got, err := ask(ctx, a, func(r chan readableAnswer) request { return readable{world: world, reply: r} })
	switch {
	case err != nil:
		return err
	case got.err != nil:
		return got.err
	case !got.has:
		return fmt.Errorf("world %q: %w", world, ErrNotRecorded)
	}
	return nil
}

// writeTrace reads the world's records into a Playwright trace.
func writeTrace(ctx context.Context, dir, world string, since time.Time, out io.Writer) error {
	opts := []pwtrace.Option{pwtrace.WithTitle(world)}
	if !since.IsZero() {
		opts = append(opts, pwtrace.WithStart(since))
	}
	w := pwtrace.NewWriter(out, opts...)
	err := store.Read(dir, world, since, func(rec store.Record) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return giveWriter(w, rec)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// giveWriter hands one record to the trace writer. A record it cannot
// read is skipped: a recording from a newer cdpvisor, say.
func giveWriter(w *pwtrace.Writer, rec store.Record) error {
	var err error
	switch rec.Kind {
	case kindFrame:
		var m frameMeta
		if json.Unmarshal(rec.Meta, &m) == nil {
			err = w.Frame(pwtrace.Frame{Page: m.Page, JPEG: rec.Data, Time: rec.Time, Width: m.Width, Height: m.Height})
		}
	case kindAction:
		err = decodeInto(rec.Meta, w.Action)
	case kindMark:
		err = decodeInto(rec.Meta, w.Mark)
	case kindNavigation:
		err = decodeInto(rec.Meta, w.Navigation)
	case kindDownload:
		err = decodeInto(rec.Meta, w.Download)
	case kindConsole:
		err = decodeInto(rec.Meta, w.Console)
	case kindPageError:
		err = decodeInto(rec.Meta, w.PageError)
	case kindRequest:
		err = decodeInto(rec.Meta, w.Request)
	}
	return err
}

// decodeInto reads meta as a T and gives it to write; meta that is not a
// T is skipped.
func decodeInto[T any](meta []byte, write func(T) error) error {
	var v T
	if json.Unmarshal(meta, &v) != nil {
		return nil
	}
	return write(v)
}
