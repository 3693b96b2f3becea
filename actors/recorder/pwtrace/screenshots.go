package pwtrace

import (
	"cmp"
	"slices"
	"sort"
)

// addScreenshots gives every action and mark on a page the frames that
// page showed: "before", the last frame by its start; "after", the last
// frame by its end and the settle time, but never past the start of the
// next action on the page; and for input, "action": the "before" frame,
// with the point where the input landed. The 1.65.1 viewer shows these
// in its snapshot pane when a trace has no DOM snapshots (TraceModel's
// screenshotForCall; hasAriaSnapshots turns its aria mode on), and for an
// action without them the previous action's "after".
func (w *Writer) addScreenshots() error {
	byPage := map[string][]callRef{}
	for _, c := range w.calls {
		if c.page != "" && len(w.frames[c.page]) > 0 {
			byPage[c.page] = append(byPage[c.page], c)
		}
	}
	settle := float64(w.opts.settle.Microseconds()) / 1e3
	pages := make([]string, 0, len(byPage))
	for page := range byPage {
		pages = append(pages, page)
	}
	slices.Sort(pages) // the same events, the same zip
	for _, page := range pages {
		frames := w.frames[page]
		slices.SortStableFunc(frames, func(a, b frameRef) int { return cmp.Compare(a.at, b.at) })
		calls := byPage[page]
		slices.SortStableFunc(calls, func(a, b callRef) int { return cmp.Compare(a.start, b.start) })
		for i, c := range calls {
			if err := w.screenshotsOf(page, c, calls[i+1:], frames, settle); err != nil {
				return err
			}
		}
	}
	return nil
}

// screenshotsOf adds c's screenshots; later are the page's calls that
// start after it.
func (w *Writer) screenshotsOf(page string, c callRef, later []callRef, frames []frameRef, settle float64) error {
	if before, ok := frameAt(frames, c.start); ok {
		if err := w.screenshot(page, c.id, "before", before); err != nil {
			return err
		}
		if c.point != nil {
			// The viewer draws the point on the image's pixels: scale it
			// from the viewport's CSS pixels.
			p := Point{
				X: c.point.X * float64(before.imageW) / float64(before.viewW),
				Y: c.point.Y * float64(before.imageH) / float64(before.viewH),
			}
			if err := w.add(false, c.start, rankInput, inputAction{Type: "input", CallID: c.id, Point: &p}); err != nil {
				return err
			}
			if err := w.screenshot(page, c.id, "action", before); err != nil {
				return err
			}
		}
	}
	if c.end == 0 {
		return nil // never answered: no "after"
	}
	limit := c.end + settle
	for _, next := range later {
		if next.start >= c.end {
			limit = min(limit, next.start)
			break
		}
	}
	if after, ok := frameAt(frames, limit); ok {
		return w.screenshot(page, c.id, "after", after)
	}
	return nil
}

func (w *Writer) screenshot(page, callID, phase string, f frameRef) error {
	w.counts.Screenshots++
	return w.add(false, f.at, rankEvent, screenshotEvent{
		Type: "screenshot", CallID: callID, Phase: phase, PageID: page, Timestamp: f.at, File: f.file,
	})
}

// frameAt is the last of frames (sorted by time) at or before t.
func frameAt(frames []frameRef, t float64) (frameRef, bool) {
	i := sort.Search(len(frames), func(i int) bool { return frames[i].at > t }) - 1
	if i < 0 {
		return frameRef{}, false
	}
	return frames[i], true
}
