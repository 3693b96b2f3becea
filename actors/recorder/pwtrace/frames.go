package pwtrace

import (
	"bytes"
	"errors"
	"fmt"
	"image/jpeg"
)

// Frame writes a page's screencast frame: its JPEG under resources/ now
// (once for the same bytes), its line at Close. It refuses a frame
// without a page or a time, or whose bytes are no JPEG.
func (w *Writer) Frame(f Frame) error {
	if err := w.usable(); err != nil {
		return err
	}
	if f.Page == "" {
		return errors.New("pwtrace: a frame without a page")
	}
	if f.Time.IsZero() {
		return errors.New("pwtrace: a frame without a time")
	}
	// The header alone: the screenshots' points are scaled by the image's
	// size, and a frame that is no JPEG would show as nothing.
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(f.JPEG))
	if err != nil {
		return fmt.Errorf("pwtrace: a frame of page %s is no JPEG: %w", f.Page, err)
	}
	file, stored, err := w.images.put(f.JPEG, f.Time)
	if err != nil {
		w.err = err
		return err
	}
	if stored {
		w.counts.Images++
	}
	viewW, viewH := f.Width, f.Height
	if viewW <= 0 || viewH <= 0 {
		viewW, viewH = cfg.Width, cfg.Height
	}
	at := ms(f.Time)
	w.frames[f.Page] = append(w.frames[f.Page], frameRef{
		at: at, file: file, imageW: cfg.Width, imageH: cfg.Height, viewW: viewW, viewH: viewH,
	})
	w.counts.Frames++
	return w.add(false, at, rankEvent, screencastFrame{
		Type: "screencast-frame", PageID: f.Page, File: file, Width: viewW, Height: viewH, Timestamp: at,
	})
}
