package pwtrace

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// The classes of the actions list's entries. Neither is a class of
// Playwright's protocol, so the viewer finds no metainfo of its own for
// them (packages/isomorphic/protocolMetainfo.ts: "Page.close" would be
// titled and grouped as Playwright's) and shows the title given.
const (
	classCommand = "CDP"      // a client's CDP command; its method is the CDP method
	classMark    = "cdpvisor" // what cdpvisor saw happen; its method is the mark's kind
)

// call is an action or a mark as the trace writes it.
type call struct {
	id, class, method, title, page string
	params                         map[string]string
	start, end                     time.Time
	err                            string
	point                          *Point
}

// Action writes a client's command: its line when it was sent, its
// answer's when it was answered, and (at Close) the screenshots of its
// page then. It refuses an action without an id, a method or a start, an
// id given before, and a point that is not a number.
func (w *Writer) Action(a Action) error {
	if err := w.usable(); err != nil {
		return err
	}
	if a.ID == "" || a.Method == "" {
		return fmt.Errorf("pwtrace: an action needs an id and a method (id %q, method %q)", a.ID, a.Method)
	}
	if a.Point != nil && !finite(a.Point.X, a.Point.Y) {
		return fmt.Errorf("pwtrace: action %s: its point is not a number", a.ID)
	}
	params := paramsOf(a.Params)
	if a.Client != "" {
		params["client"] = a.Client
	}
	if a.Target != "" {
		params["target"] = a.Target
	}
	return w.addCall(call{
		id: "call@" + a.ID, class: classCommand, method: a.Method, title: a.Title, page: a.Page,
		params: params, start: a.Start, end: a.End, err: a.Error, point: a.Point,
	})
}

// Mark writes what no client's command made, as an entry of the actions
// list (a moment's lasts no time). It refuses a mark without a kind or a
// start.
func (w *Writer) Mark(m Mark) error {
	if err := w.usable(); err != nil {
		return err
	}
	if m.Kind == "" {
		return errors.New("pwtrace: a mark without a kind")
	}
	end := m.End
	if end.IsZero() {
		end = m.Start
	}
	w.marks++
	return w.addCall(call{
		id: "mark@" + strconv.Itoa(w.marks), class: classMark, method: m.Kind, title: m.Title, page: m.Page,
		params: paramsOf(m.Params), start: m.Start, end: end,
	})
}

// Navigation writes a page's navigation as a mark: the actions list shows
// where the page went, whoever made it go.
func (w *Writer) Navigation(n Navigation) error {
	return w.Mark(Mark{
		Kind: "navigation", Title: "Navigated to {url}", Page: n.Page,
		Params: map[string]string{"url": n.URL}, Start: n.Time,
	})
}

// Download writes a page's download as a mark.
func (w *Writer) Download(d Download) error {
	return w.Mark(Mark{
		Kind: "download", Title: "Download {file}", Page: d.Page,
		Params: map[string]string{"url": d.URL, "file": d.FileName}, Start: d.Start, End: d.End,
	})
}

func (w *Writer) addCall(c call) error {
	if c.start.IsZero() {
		return fmt.Errorf("pwtrace: %s %s without a start", c.class, c.method)
	}
	if w.callIDs[c.id] {
		return fmt.Errorf("pwtrace: action id %s given twice", c.id)
	}
	start := ms(c.start)
	err := w.add(false, start, rankBefore, beforeAction{
		Type: "before", CallID: c.id, StartTime: start, Title: c.title,
		Class: c.class, Method: c.method, Params: c.params, PageID: c.page,
	})
	if err != nil {
		return err
	}
	w.callIDs[c.id] = true
	w.counts.Actions++
	ref := callRef{id: c.id, page: c.page, start: start, point: c.point}
	if !c.end.IsZero() {
		// An answer before its command (clocks of two processes) would
		// make a negative duration: it ends when it starts.
		ref.end = max(ms(c.end), start)
		after := afterAction{Type: "after", CallID: c.id, EndTime: ref.end}
		if c.err != "" {
			after.Error = &errorObject{Name: "Error", Message: c.err}
		}
		if err := w.add(false, ref.end, rankAfter, after); err != nil {
			return err
		}
	}
	w.calls = append(w.calls, ref)
	return nil
}

// reserved are the parameter names the viewer's Call tab reads as
// Playwright's own (callTab.tsx propertyToString: a selector is parsed as
// a locator, "arg" and "value" of a method named *eval* as serialized
// values, "info" hidden, …) and the two the writer sets. A given
// parameter of such a name gets a trailing "_".
var reserved = map[string]bool{
	"selector": true, "arg": true, "value": true, "eventInit": true, "expectedValue": true,
	"received": true, "files": true, "info": true, "client": true, "target": true,
}

// paramsOf copies p, renaming the reserved names; never nil (the viewer
// reads params.selector of every action).
func paramsOf(p map[string]string) map[string]string {
	out := make(map[string]string, len(p)+2)
	for k, v := range p {
		if reserved[k] {
			k += "_"
		}
		out[k] = v
	}
	return out
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
