package recorder

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
)

// Recording is a world's recording as the live view plays it back: its
// status, its frames' times (each fetched alone, framePath), its actions
// and its other events, oldest first.
type Recording struct {
	Status
	Frames  []FrameRef       `json:"frames"`
	Actions []pwtrace.Action `json:"actions"`
	Events  []Event          `json:"events"`
	// Cut: more was recorded than one answer lists (the newest are left
	// out); the trace has it all.
	Cut bool `json:"cut,omitempty"`
}

// FrameRef is a frame: its page and its time, Unix nanoseconds (the
// frame's own URL: framePath?page=PAGE&t=T).
type FrameRef struct {
	T      int64  `json:"t"`
	Page   string `json:"page"`
	Width  int    `json:"w,omitempty"`
	Height int    `json:"h,omitempty"`
}

// Event is any other record, in words: a navigation, a console message, a
// page error, a request, a download, a mark.
type Event struct {
	T    int64  `json:"t"`
	Kind string `json:"kind"`
	Page string `json:"page,omitempty"`
	Text string `json:"text"`
}

// maxListed bounds what one answer lists of each.
const maxListed = 50000

// errListed stops a read once an answer holds enough.
var errListed = errors.New("listed enough")

func (a *Actor) serveRecording(w http.ResponseWriter, r *http.Request, name string) {
	if err := a.Readable(r.Context(), name); err != nil {
		answerError(w, err)
		return
	}
	st, err := a.StatusOf(r.Context(), name)
	if err != nil {
		answerError(w, err)
		return
	}
	rec := Recording{Status: st, Frames: []FrameRef{}, Actions: []pwtrace.Action{}, Events: []Event{}}
	err = store.Read(a.spec.Dir, name, time.Time{}, func(x store.Record) error {
		if len(rec.Frames)+len(rec.Actions)+len(rec.Events) >= 3*maxListed {
			rec.Cut = true
			return errListed
		}
		return rec.add(x)
	})
	if err != nil && !errors.Is(err, errListed) {
		answerError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(rec)
}

func (rec *Recording) add(x store.Record) error {
	t := x.Time.UnixNano()
	ev := func(kind, page, text string) {
		rec.Events = append(rec.Events, Event{T: t, Kind: kind, Page: page, Text: text})
	}
	switch x.Kind {
	case kindFrame:
		var m frameMeta
		if json.Unmarshal(x.Meta, &m) == nil {
			rec.Frames = append(rec.Frames, FrameRef{T: t, Page: m.Page, Width: m.Width, Height: m.Height})
		}
	case kindAction:
		var v pwtrace.Action
		if json.Unmarshal(x.Meta, &v) == nil {
			rec.Actions = append(rec.Actions, v)
		}
	case kindMark:
		var v pwtrace.Mark
		if json.Unmarshal(x.Meta, &v) == nil {
			ev(v.Kind, v.Page, titled(v.Title, v.Params))
		}
	case kindNavigation:
		var v pwtrace.Navigation
		if json.Unmarshal(x.Meta, &v) == nil {
			ev("navigation", v.Page, v.URL)
		}
	case kindConsole:
		var v pwtrace.Console
		if json.Unmarshal(x.Meta, &v) == nil {
			ev("console", v.Page, v.Type+": "+v.Text)
		}
	case kindPageError:
		var v pwtrace.PageError
		if json.Unmarshal(x.Meta, &v) == nil {
			ev("pageerror", v.Page, v.Name+": "+v.Message)
		}
	case kindRequest:
		var v pwtrace.Request
		if json.Unmarshal(x.Meta, &v) == nil {
			text := fmt.Sprintf("%s %s → %d", v.Method, v.URL, v.Status)
			if v.Failure != "" {
				text = fmt.Sprintf("%s %s → %s", v.Method, v.URL, v.Failure)
			}
			ev("request", v.Page, text)
		}
	case kindDownload:
		var v pwtrace.Download
		if json.Unmarshal(x.Meta, &v) == nil {
			ev("download", v.Page, v.FileName+" from "+v.URL)
		}
	}
	return nil
}

// titled fills a title's {name}s from params.
func titled(title string, params map[string]string) string {
	for k, v := range params {
		title = strings.ReplaceAll(title, "{"+k+"}", v)
	}
	return title
}

// serveFrame answers one frame's JPEG: ?page= and ?t= of a FrameRef.
func (a *Actor) serveFrame(w http.ResponseWriter, r *http.Request, name string) {
	page := r.URL.Query().Get("page")
	t, err := strconv.ParseInt(r.URL.Query().Get("t"), 10, 64)
	if err != nil || page == "" {
		http.Error(w, "cdpvisor: a frame is asked by ?page=PAGE&t=UNIX_NANOSECONDS (a frame of GET …/recording)", http.StatusBadRequest)
		return
	}
	if err := a.Readable(r.Context(), name); err != nil {
		answerError(w, err)
		return
	}
	at := time.Unix(0, t)
	var jpeg []byte
	err = store.Read(a.spec.Dir, name, at, func(x store.Record) error {
		if x.Kind != kindFrame {
			return nil
		}
		var m frameMeta
		if json.Unmarshal(x.Meta, &m) != nil || m.Page != page {
			return nil
		}
		jpeg = x.Data
		return errListed // the first of the page at or after t
	})
	if err != nil && !errors.Is(err, errListed) {
		answerError(w, err)
		return
	}
	if jpeg == nil {
		http.Error(w, "cdpvisor: no such frame (the caps may have dropped it)", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = w.Write(jpeg)
}
