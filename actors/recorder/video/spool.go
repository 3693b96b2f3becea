package video

import (
	"bufio"
	"bytes"
	"fmt"
	"image/jpeg"
	"os"
	"path/filepath"
	"time"
)

// lastShown is how long the last frame stays on screen: nothing says when
// the page changed after it.
const lastShown = time.Second

// spool writes frames to files in dir and lists them, with how long each
// is shown, for ffmpeg's concat demuxer. It writes two lists at once: the
// exact one has each frame read at 1/1000 s (the "option" directive,
// FFmpeg 5.0+); the plain one, for older ffmpeg, leaves ffmpeg's own 1/25 s.
type spool struct {
	dir          string
	exact, plain *os.File
	ew, pw       *bufio.Writer

	n             int       // frames taken
	first         time.Time // the first frame's time: the video's 0
	width, height int       // the first frame's size, made even

	// The frame last written waits for the next one, which says how long
	// it is shown.
	pending   string // its file name; "" before the first frame
	pendingAt int64  // when it is shown, in ms since first
}

func newSpool(dir string) (*spool, error) {
	s := &spool{dir: dir}
	var err error
	if s.exact, err = os.Create(filepath.Join(dir, "exact.ffconcat")); err != nil {
		return nil, err
	}
	if s.plain, err = os.Create(filepath.Join(dir, "plain.ffconcat")); err != nil {
		s.exact.Close()
		return nil, err
	}
	s.ew, s.pw = bufio.NewWriter(s.exact), bufio.NewWriter(s.plain)
	s.ew.WriteString("ffconcat version 1.0\n")
	s.pw.WriteString("ffconcat version 1.0\n")
	return s, nil
}

// add writes one frame. Frames should come in time order; one earlier
// than the frame before is taken as shown at that frame's time, and a
// frame shown at the same millisecond as the one before replaces it.
func (s *spool) add(f Frame) error {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(f.JPEG))
	if err != nil {
		return fmt.Errorf("frame %d is not a JPEG: %w", s.n, err)
	}
	at := int64(0)
	if s.n == 0 {
		s.first = f.Time
		// yuv420p, which VP8 takes, needs an even width and height.
		s.width, s.height = even(cfg.Width), even(cfg.Height)
	} else {
		at = max(f.Time.Sub(s.first).Round(time.Millisecond).Milliseconds(), s.pendingAt)
	}
	if s.pending != "" {
		if d := at - s.pendingAt; d > 0 {
			s.entry(s.pending, d)
		} else if err := os.Remove(filepath.Join(s.dir, s.pending)); err != nil {
			return err
		}
	}
	name := fmt.Sprintf("%08d.jpg", s.n)
	if err := os.WriteFile(filepath.Join(s.dir, name), f.JPEG, 0o600); err != nil {
		return fmt.Errorf("spooling frame %d: %w", s.n, err)
	}
	s.n++
	s.pending, s.pendingAt = name, at
	return nil
}

// finish lists the last frame and writes the lists out.
func (s *spool) finish() error {
	if s.pending == "" {
		return ErrNoFrames
	}
	s.entry(s.pending, lastShown.Milliseconds())
	// The concat demuxer ends the video where the last file starts, not
	// where its duration ends: list the last frame again so the one before
	// it is shown for its duration.
	fmt.Fprintf(s.ew, "file %s\noption framerate 1000\n", s.pending)
	fmt.Fprintf(s.pw, "file %s\n", s.pending)
	if err := s.ew.Flush(); err != nil {
		return err
	}
	return s.pw.Flush()
}

// entry lists a frame shown for ms milliseconds.
func (s *spool) entry(name string, ms int64) {
	d := fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
	// Names are ours (digits and .jpg): nothing to quote.
	fmt.Fprintf(s.ew, "file %s\noption framerate 1000\nduration %s\n", name, d)
	fmt.Fprintf(s.pw, "file %s\nduration %s\n", name, d)
}

func (s *spool) close() {
	s.exact.Close()
	s.plain.Close()
}

func even(n int) int { return max(2, n+n%2) }
