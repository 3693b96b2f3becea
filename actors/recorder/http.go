package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/video"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The recorder's paths, below a world's request path
// (worldapi.Path/NAME): its trace, and its recording as the live view
// plays it back (recording.go).
const (
	recordingPath = "/recording"
	framePath     = "/recording/frame"
)

// TotalsPath answers every recording of the coordinator together
// (Totals), as JSON.
const TotalsPath = "/cdpvisor/recordings"

// isRecordingPath says path is one of them.
func isRecordingPath(path string) bool {
	if path == TotalsPath {
		return true
	}
	rest, ok := strings.CutPrefix(path, worldapi.Path+"/")
	if !ok {
		return false
	}
	_, sub, ok := strings.Cut(rest, "/")
	switch "/" + sub {
	case worldapi.TracePath, recordingPath, framePath:
		return ok
	}
	return false
}

// ServeHTTP answers the recorder's paths: GET only, owner-only as every
// request of the endpoint.
func (a *Actor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == TotalsPath {
		a.serveTotals(w, r)
		return
	}
	name, sub, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), worldapi.Path+"/"), "/")
	if err := worlds.CheckName(name); err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: %v (in %s)", err, r.URL.EscapedPath()), http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: GET reads the world's recording", r.Method, r.URL.Path), http.StatusMethodNotAllowed)
		return
	}
	switch "/" + sub {
	case worldapi.TracePath:
		a.serveTrace(w, r, name)
	case recordingPath:
		a.serveRecording(w, r, name)
	case framePath:
		a.serveFrame(w, r, name)
	default:
		http.NotFound(w, r)
	}
}

// serveTrace writes the world's trace (?since=, ?format=) as a download.
func (a *Actor) serveTrace(w http.ResponseWriter, r *http.Request, name string) {
	q := worldapi.TraceQuery{Format: r.URL.Query().Get("format")}
	if s := r.URL.Query().Get("since"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			http.Error(w, fmt.Sprintf("cdpvisor: since=%q is not an RFC 3339 time (e.g. 2026-12-07T17:00:00Z)", s), http.StatusBadRequest)
			return
		}
		q.Since = t
	}
	ext, kind := ".zip", "application/zip"
	switch q.Format {
	case "", worldapi.FormatTrace:
	case worldapi.FormatWebM:
		ext, kind = ".webm", "video/webm"
	default:
		http.Error(w, fmt.Sprintf("cdpvisor: format=%q: %v", q.Format, ErrBadFormat), http.StatusBadRequest)
		return
	}
	if err := a.Readable(r.Context(), name); err != nil {
		answerError(w, err)
		return
	}
	w.Header().Set("Content-Type", kind)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+"-"+time.Now().UTC().Format("20060102T150405Z")+ext))
	tw := &startedWriter{w: w}
	if err := a.Trace(r.Context(), "", name, q, tw); err != nil {
		if !tw.started {
			w.Header().Del("Content-Disposition")
			answerError(w, err)
			return
		}
		a.spec.Log.Warn().Err(err).Str("world", name).Msg("a trace was cut short")
	}
}

// answerError writes err with its status.
func answerError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrNotRecorded):
		code = http.StatusNotFound
	case errors.Is(err, ErrBadFormat):
		code = http.StatusBadRequest
	case errors.Is(err, video.ErrNoFFmpeg), errors.Is(err, video.ErrNoFrames):
		code = http.StatusConflict // its text says what to do
	case errors.Is(err, context.Canceled):
		return // the client left
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	http.Error(w, "cdpvisor: "+err.Error(), code)
}

// startedWriter says whether anything was written: past that, an error
// can no longer be the answer's status.
type startedWriter struct {
	w       http.ResponseWriter
	started bool
}

func (s *startedWriter) Write(p []byte) (int, error) {
	s.started = true
	return s.w.Write(p)
}

func (a *Actor) serveTotals(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: GET reads the recordings' totals", r.Method, r.URL.Path), http.StatusMethodNotAllowed)
		return
	}
	t, err := a.TotalsOf(r.Context())
	if err != nil {
		answerError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(t)
}
