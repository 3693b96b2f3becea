package video

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"iter"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWebMWithoutFFmpeg(t *testing.T) {
	check := func(t *testing.T, opts ...Option) {
		tmp := t.TempDir()
		var out bytes.Buffer
		err := WebM(context.Background(), framesOf(t, shot{64, 48, red, 0}), &out, append(opts, WithTempDir(tmp))...)
		if !errors.Is(err, ErrNoFFmpeg) {
			t.Fatalf("err = %v, want ErrNoFFmpeg", err)
		}
		for _, want := range []string{"apt-get install ffmpeg", "brew install ffmpeg", "Playwright trace"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		checkEmpty(t, tmp)
	}
	t.Run("missing file", func(t *testing.T) {
		check(t, WithFFmpeg(filepath.Join(t.TempDir(), "no-ffmpeg-here")))
	})
	t.Run("not on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		check(t)
	})
}

func TestWebMWithoutFrames(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	var out bytes.Buffer
	err := WebM(context.Background(), framesOf(t), &out, WithTempDir(tmp))
	if !errors.Is(err, ErrNoFrames) {
		t.Fatalf("err = %v, want ErrNoFrames", err)
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written", out.Len())
	}
	checkEmpty(t, tmp)
}

func TestWebMReturnsTheFramesError(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	boom := errors.New("journal unreadable")
	seq := func(yield func(Frame, error) bool) {
		for f := range framesOf(t, shot{64, 48, red, 0}, shot{64, 48, green, 1}) {
			if !yield(f, nil) {
				return
			}
		}
		yield(Frame{}, boom)
	}
	var out bytes.Buffer
	err := WebM(context.Background(), seq, &out, WithTempDir(tmp))
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap %v", err, boom)
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written", out.Len())
	}
	checkEmpty(t, tmp)
}

func TestWebMRefusesANonJPEGFrame(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	seq := func(yield func(Frame, error) bool) {
		for f := range framesOf(t, shot{64, 48, red, 0}) {
			yield(f, nil)
		}
		yield(Frame{JPEG: []byte("not a picture"), Time: t0}, nil)
	}
	err := WebM(context.Background(), seq, &bytes.Buffer{}, WithTempDir(tmp))
	if err == nil || !strings.Contains(err.Error(), "frame 1 is not a JPEG") {
		t.Fatalf("err = %v, want frame 1 is not a JPEG", err)
	}
	checkEmpty(t, tmp)
}

func TestWebMCancelledWhileReadingFrames(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := framesOf(t, shot{64, 48, red, 0}, shot{64, 48, green, 1}, shot{64, 48, blue, 2})
	seq := func(yield func(Frame, error) bool) {
		n := 0
		for f := range frames {
			if n++; n == 2 {
				cancel()
			}
			if !yield(f, nil) {
				return
			}
		}
	}
	err := WebM(ctx, seq, &bytes.Buffer{}, WithTempDir(tmp))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	checkEmpty(t, tmp)
}

func TestWebMCancelledKillsFFmpeg(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid := 0
	// Stopped, ffmpeg cannot finish on its own: only being killed ends it.
	started := withOnStart(func(p int) {
		pid = p
		syscall.Kill(p, syscall.SIGSTOP)
		cancel()
	})
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- WebM(ctx, manyFrames(t, 30), &out, WithTempDir(tmp), started) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		syscall.Kill(pid, syscall.SIGKILL)
		<-done
		t.Fatalf("WebM still running 30 s after its ctx was cancelled: ffmpeg (pid %d) not killed", pid)
	}
	if pid == 0 {
		t.Fatalf("ffmpeg never started (err %v)", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("ffmpeg (pid %d) still there: kill -0 says %v", pid, err)
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written", out.Len())
	}
	checkEmpty(t, tmp)
}

// manyFrames is n frames 0.1 s apart, alternating colors.
func manyFrames(t *testing.T, n int) iter.Seq2[Frame, error] {
	shots := make([]shot, n)
	for i := range shots {
		shots[i] = shot{320, 200, []color.RGBA{red, green, blue}[i%3], float64(i) / 10}
	}
	return framesOf(t, shots...)
}

func TestWebMFFmpegFailureCarriesItsStderr(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	// Wider than VP8's 16383: a real ffmpeg failure, in libvpx.
	err := WebM(context.Background(), framesOf(t, shot{20000, 2, red, 0}), &bytes.Buffer{}, WithTempDir(tmp))
	if err == nil {
		t.Fatal("no error for a 20000-wide video")
	}
	if !strings.Contains(err.Error(), "exit status") || !strings.Contains(err.Error(), "16383") {
		t.Errorf("error %q does not carry ffmpeg's exit status and stderr", err)
	}
	checkEmpty(t, tmp)
}

func TestTailKeepsTheLastBytes(t *testing.T) {
	tl := &tail{max: 8}
	tl.Write([]byte("abc"))
	if got := tl.String(); got != "abc" {
		t.Errorf("got %q", got)
	}
	tl.Write([]byte("defghij"))
	tl.Write([]byte("kl"))
	if got := tl.String(); got != "…efghijkl" {
		t.Errorf("got %q, want …efghijkl", got)
	}
}
