package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
	"github.com/cdpvisor/cdpvisor/actors/recorder/video"
)

// writeVideo reads the world's frames, every page's in time order, into
// a WebM video (ffmpeg's: video.ErrNoFFmpeg without it).
func writeVideo(ctx context.Context, dir, world string, since time.Time, out io.Writer) error {
	return video.WebM(ctx, framesOf(dir, world, since), out)
}

// errEnough stops a read its consumer has left.
var errEnough = errors.New("the consumer stopped")

// framesOf yields the world's frames as the store reads them.
func framesOf(dir, world string, since time.Time) iter.Seq2[video.Frame, error] {
	return func(yield func(video.Frame, error) bool) {
		err := store.Read(dir, world, since, func(rec store.Record) error {
			if rec.Kind != kindFrame {
				return nil
			}
			var m frameMeta
			if json.Unmarshal(rec.Meta, &m) != nil {
				return nil
			}
			if !yield(video.Frame{JPEG: rec.Data, Time: rec.Time}, nil) {
				return errEnough
			}
			return nil
		})
		if err != nil && !errors.Is(err, errEnough) {
			yield(video.Frame{}, err)
		}
	}
}
