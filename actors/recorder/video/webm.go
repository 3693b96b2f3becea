package video

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Frame is one image of the video and when the page showed it.
type Frame struct {
	JPEG []byte
	Time time.Time
}

// WebM writes the frames as a VP8 WebM video to out. Frames come in time
// order; each is shown until the next one's time, the last one for a
// second. The video has the first frame's size (made even); other frames
// are scaled down to fit it and padded.
//
// The frames are spooled to a private temporary directory, removed before
// WebM returns, whatever happens. Cancelling ctx kills ffmpeg and returns
// ctx's error. An error of the frames is returned wrapped; a failure of
// ffmpeg carries the end of what it wrote to stderr.
func WebM(ctx context.Context, frames iter.Seq2[Frame, error], out io.Writer, opts ...Option) error {
	o := defaults()
	for _, opt := range opts {
		opt(&o)
	}
	bin, err := exec.LookPath(o.ffmpeg)
	if err != nil {
		return fmt.Errorf("video: %w (%v)", ErrNoFFmpeg, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// MkdirTemp makes it 0700: the frames show what the pages showed.
	dir, err := os.MkdirTemp(o.tempDir, "cdpv-video-*")
	if err != nil {
		return fmt.Errorf("video: %w", err)
	}
	defer os.RemoveAll(dir)

	s, err := newSpool(dir)
	if err != nil {
		return fmt.Errorf("video: %w", err)
	}
	defer s.close()
	for f, err := range frames {
		if err != nil {
			return fmt.Errorf("video: reading frame %d: %w", s.n, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.add(f); err != nil {
			return fmt.Errorf("video: %w", err)
		}
	}
	if err := s.finish(); err != nil {
		return fmt.Errorf("video: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	file := filepath.Join(dir, "video.webm")
	stderr, err := encode(ctx, o, bin, dir, s.exact.Name(), file, s.width, s.height)
	if err != nil && ctx.Err() == nil && strings.Contains(stderr, "unknown keyword 'option'") {
		// An ffmpeg before 5.0: the plain list, at its 1/25 s.
		stderr, err = encode(ctx, o, bin, dir, s.plain.Name(), file, s.width, s.height)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err != nil {
		return fmt.Errorf("video: ffmpeg: %w: %s", err, strings.TrimSpace(stderr))
	}
	return copyFile(out, file)
}

func copyFile(out io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("video: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(out, f); err != nil {
		return fmt.Errorf("video: writing the video: %w", err)
	}
	return nil
}
