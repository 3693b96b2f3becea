package pwtrace

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"testing"
	"time"
)

// A 1280×720 frame of a page that changes (a gradient shifted per frame):
// the writer's cost per frame, its JPEG hashed, checked and stored.
func BenchmarkFrame1280x720(b *testing.B) {
	frames := make([][]byte, 8)
	for i := range frames {
		img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
		for y := range 720 {
			for x := range 1280 {
				img.Set(x, y, color.RGBA{uint8(x + 16*i), uint8(y), uint8(x ^ y), 255})
			}
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 70}); err != nil {
			b.Fatal(err)
		}
		frames[i] = buf.Bytes()
	}
	w := NewWriter(io.Discard)
	b.SetBytes(int64(len(frames[0])))
	b.ResetTimer()
	for i := range b.N {
		// Distinct bytes each time, as a changing page sends.
		f := append([]byte(nil), frames[i%len(frames)]...)
		f = append(f[:len(f)-2], byte(i), byte(i>>8), 0xff, 0xd9)
		if err := w.Frame(Frame{Page: "P", JPEG: f, Time: t0.Add(time.Duration(i) * time.Second)}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
