package video

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"
)

// stderrKept bounds what is kept of ffmpeg's stderr for an error: its last
// lines say why it failed.
const stderrKept = 8 << 10

// encode runs ffmpeg on a concat list in dir, writing the WebM to outFile,
// and returns the tail of its stderr. Cancelling ctx kills it.
func encode(ctx context.Context, o options, bin, dir, list, outFile string, width, height int) (string, error) {
	args := []string{
		"-hide_banner", "-nostdin", "-nostats", "-loglevel", "error",
		// -safe 0 only for the list's "option" lines: every name in it is
		// one of ours in our own directory.
		"-f", "concat", "-safe", "0", "-i", list,
		"-map", "0:v:0", "-an", "-sn",
		"-vf", fitFilter(width, height),
		// VP8: every ffmpeg with libvpx has it, and it encodes faster than VP9.
		"-c:v", "libvpx", "-b:v", strconv.Itoa(o.bitrate),
		"-deadline", "good", "-cpu-used", "4",
		// The WebM muxer keeps each frame's own time (variable frame rate):
		// frames are not duplicated to fill a fixed rate.
		"-f", "webm", "-y", outFile,
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	stderr := &tail{max: stderrKept}
	cmd.Stderr = stderr
	// Killed, ffmpeg leaves nothing holding its stderr; don't wait long on it.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return "", err
	}
	if o.onStart != nil {
		o.onStart(cmd.Process.Pid)
	}
	err := cmd.Wait()
	return stderr.String(), err
}

// fitFilter scales a frame down to fit width×height, keeping its aspect,
// and pads it to that size, centered: frames of the first frame's size
// pass unscaled, and smaller ones are not blurred by scaling up.
func fitFilter(width, height int) string {
	scale := fmt.Sprintf("min(1,min(%d/iw,%d/ih))", width, height)
	// Quoted: the expressions' commas would otherwise end the filter.
	return fmt.Sprintf("scale=w='max(1,trunc(iw*%[3]s))':h='max(1,trunc(ih*%[3]s))',"+
		"pad=%[1]d:%[2]d:(ow-iw)/2:(oh-ih)/2,format=yuv420p", width, height, scale)
}

// tail is an io.Writer keeping the last max bytes written to it.
type tail struct {
	b         []byte
	max       int
	truncated bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.truncated = true
	}
	return len(p), nil
}

func (t *tail) String() string {
	if t.truncated {
		return "…" + string(t.b)
	}
	return string(t.b)
}
