package video

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// needFFmpeg skips a test without ffmpeg and ffprobe, but fails it when CI
// is set: there a missing ffmpeg is a broken setup, not a choice.
func needFFmpeg(t *testing.T) {
	t.Helper()
	for _, name := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not on PATH (CI is set): run .ci/setup or apt-get install ffmpeg", name)
			}
			t.Skipf("%s not on PATH: install ffmpeg (apt-get install ffmpeg) to run the WebM tests", name)
		}
	}
}

var (
	red    = color.RGBA{255, 0, 0, 255}
	green  = color.RGBA{0, 160, 0, 255}
	blue   = color.RGBA{0, 0, 255, 255}
	yellow = color.RGBA{255, 255, 0, 255}
	white  = color.RGBA{255, 255, 255, 255}
	black  = color.RGBA{0, 0, 0, 255}
)

// solid is a JPEG of one color.
func solid(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// shot is a frame in a test: its size, color and seconds from the start.
type shot struct {
	w, h int
	c    color.RGBA
	at   float64
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func framesOf(t *testing.T, shots ...shot) iter.Seq2[Frame, error] {
	t.Helper()
	frames := make([]Frame, len(shots))
	for i, s := range shots {
		frames[i] = Frame{JPEG: solid(t, s.w, s.h, s.c), Time: t0.Add(time.Duration(s.at * float64(time.Second)))}
	}
	return func(yield func(Frame, error) bool) {
		for _, f := range frames {
			if !yield(f, nil) {
				return
			}
		}
	}
}

// writeWebM writes the frames' video to a file and returns its name.
func writeWebM(t *testing.T, frames iter.Seq2[Frame, error], opts ...Option) string {
	t.Helper()
	var out bytes.Buffer
	if err := WebM(context.Background(), frames, &out, opts...); err != nil {
		t.Fatalf("WebM: %v", err)
	}
	file := filepath.Join(t.TempDir(), "video.webm")
	if err := os.WriteFile(file, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

type probed struct {
	codec         string
	width, height int
	duration      float64
}

func probe(t *testing.T, file string) probed {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0",
		"-show_entries", "stream=codec_name,width,height:format=duration", "-of", "json", file).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	var v struct {
		Streams []struct {
			CodecName string `json:"codec_name"`
			Width     int    `json:"width"`
			Height    int    `json:"height"`
		}
		Format struct {
			Duration string
		}
	}
	if err := json.Unmarshal(out, &v); err != nil || len(v.Streams) != 1 {
		t.Fatalf("ffprobe said %s (%v)", out, err)
	}
	d, err := strconv.ParseFloat(v.Format.Duration, 64)
	if err != nil {
		t.Fatalf("ffprobe duration %q: %v", v.Format.Duration, err)
	}
	s := v.Streams[0]
	return probed{codec: s.CodecName, width: s.Width, height: s.Height, duration: d}
}

// shownAt decodes the picture the video shows at sec seconds. Seeking with
// -ss would give the next frame at or after sec; resampling to a fixed
// rate first repeats the frame on screen then.
func shownAt(t *testing.T, file string, sec float64) image.Image {
	t.Helper()
	pngFile := filepath.Join(t.TempDir(), "frame.png")
	vf := "fps=100,trim=start=" + strconv.FormatFloat(sec, 'f', 3, 64)
	if out, err := exec.Command("ffmpeg", "-v", "error", "-nostdin", "-i", file, "-vf", vf,
		"-frames:v", "1", "-y", pngFile).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg extracting t=%v: %v\n%s", sec, err, out)
	}
	data, err := os.ReadFile(pngFile)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// checkColor fails unless the pixel at x, y is near want (lossy codecs
// and YUV conversions move colors a little).
func checkColor(t *testing.T, img image.Image, x, y int, want color.RGBA, what string) {
	t.Helper()
	r, g, b, _ := img.At(x, y).RGBA()
	got := []int{int(r >> 8), int(g >> 8), int(b >> 8)}
	for i, w := range []uint8{want.R, want.G, want.B} {
		if d := got[i] - int(w); d < -40 || d > 40 {
			t.Errorf("%s: pixel (%d,%d) is rgb%v, want about rgb(%d,%d,%d)", what, x, y, got, want.R, want.G, want.B)
			return
		}
	}
}

// checkCenter checks the color at the center of the picture shown at sec.
func checkCenter(t *testing.T, file string, sec float64, want color.RGBA) {
	t.Helper()
	img := shownAt(t, file, sec)
	b := img.Bounds()
	checkColor(t, img, b.Dx()/2, b.Dy()/2, want, "t="+strconv.FormatFloat(sec, 'f', -1, 64)+"s")
}

// checkEmpty fails when dir holds anything: the frames' directory must go.
func checkEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left in the temp dir: %s", e.Name())
	}
}
