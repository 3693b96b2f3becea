package recorder

import (
	"encoding/json"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
)

// The kinds of record kept of a world: each a pwtrace type as JSON (a
// frame's JPEG in the record's data, its page and size in frameMeta).
const (
	kindFrame      = "frame"
	kindAction     = "action"
	kindMark       = "mark"
	kindNavigation = "navigation"
	kindDownload   = "download"
	kindConsole    = "console"
	kindPageError  = "pageerror"
	kindRequest    = "request"
)

// frameMeta is what is kept of a frame beside its JPEG.
type frameMeta struct {
	Page   string `json:"page"`
	Width  int    `json:"w,omitempty"`
	Height int    `json:"h,omitempty"`
}

// note is what a tap or a hook hands the actor: a record of a world, kept
// if the world is recorded when the actor takes it.
type note struct {
	world string
	kind  string
	at    time.Time
	v     any // a pwtrace type of kind
}

// give hands the actor a note without waiting; a full queue drops it (and
// counts it: the status says so).
func (a *Actor) give(n note) {
	select {
	case a.notes <- n:
	default:
		a.dropped.Add(1)
	}
}

func (r *run) note(n note) {
	if !r.isRecorded(n.world) {
		return
	}
	if e, ok := n.v.(downloads.Entry); ok {
		r.download(n, e)
		return
	}
	r.keep(n.world, n.kind, n.at, n.v, nil)
}

// keep appends one record to the world's recording.
func (r *run) keep(world, kind string, at time.Time, v any, data []byte) bool {
	meta, err := json.Marshal(v)
	if err != nil {
		return false
	}
	if err := r.st.Append(world, store.Record{Time: at, Kind: kind, Meta: meta, Data: data}); err != nil {
		c := r.countsOf(world)
		if c.failed == 0 {
			r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("the world's recording could not be written; later failures are counted, not logged")
		}
		c.failed++
		r.total.failed++
		return false
	}
	r.written[world] = true
	return true
}

// keepFrame keeps a page's frame; false: it was not written.
func (r *run) keepFrame(world string, f pwtrace.Frame) bool {
	c := r.countsOf(world)
	c.framesReceived++
	r.total.framesReceived++
	if !r.keep(world, kindFrame, f.Time, frameMeta{Page: f.Page, Width: f.Width, Height: f.Height}, f.JPEG) {
		return false
	}
	c.framesWritten++
	r.total.framesWritten++
	return true
}

// Status is a world's recording as it stands (GET
// /cdpvisor/worlds/NAME/recording's head).
type Status struct {
	World    string `json:"world"`
	Recorded bool   `json:"recorded"`
	Bytes    int64  `json:"bytes"`
	// DroppedBytes were dropped by the caps, oldest first, since the
	// coordinator started.
	DroppedBytes int64 `json:"dropped_bytes"`
	// FramesReceived and FramesWritten count the pages' frames since the
	// coordinator started; NotesDropped the actions and marks the
	// recorder was too far behind to take (of every world).
	FramesReceived int64 `json:"frames_received"`
	FramesWritten  int64 `json:"frames_written"`
	WriteFailures  int64 `json:"write_failures,omitempty"`
	NotesDropped   int64 `json:"notes_dropped"`
	Pages          int   `json:"pages"` // its pages recorded now
}

func (r *run) status(world string) Status {
	s := Status{World: world, Recorded: r.isRecorded(world), Bytes: r.st.Size(world), DroppedBytes: r.st.Dropped(world), NotesDropped: r.a.dropped.Load()}
	if c := r.counts[world]; c != nil {
		s.FramesReceived, s.FramesWritten, s.WriteFailures = c.framesReceived, c.framesWritten, c.failed
	}
	for _, in := range r.instances {
		for _, p := range in.pages {
			if p.world == world && p.session != "" {
				s.Pages++
			}
		}
	}
	return s
}

// Totals are every recording of the coordinator together (GET
// /cdpvisor/recordings): what the soak samples.
type Totals struct {
	Worlds int   `json:"worlds"` // worlds with a recording kept
	Bytes  int64 `json:"bytes"`
	// DroppedBytes were dropped by the caps since the coordinator started.
	DroppedBytes   int64 `json:"dropped_bytes"`
	FramesReceived int64 `json:"frames_received"`
	FramesWritten  int64 `json:"frames_written"`
	WriteFailures  int64 `json:"write_failures"`
	NotesDropped   int64 `json:"notes_dropped"`
	Pages          int   `json:"pages"` // pages recorded now
}

func (r *run) totals() Totals {
	t := Totals{Bytes: r.st.Total(), FramesReceived: r.total.framesReceived, FramesWritten: r.total.framesWritten,
		WriteFailures: r.total.failed, NotesDropped: r.a.dropped.Load(), DroppedBytes: r.dropped}
	for _, w := range r.st.Worlds() {
		t.Worlds++
		t.DroppedBytes += r.st.Dropped(w)
	}
	for _, in := range r.instances {
		t.Pages += len(in.sessions)
	}
	return t
}
