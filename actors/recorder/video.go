package recorder

import (
	"context"
	"io"
	"time"
)

// writeVideo reads the world's frames into a WebM video.
func writeVideo(ctx context.Context, dir, world string, since time.Time, out io.Writer) error {
	return ErrBadFormat
}
