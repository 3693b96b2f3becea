package recorder

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// serveRecorder serves a recorder on a temporary dir until the test ends.
func serveRecorder(t *testing.T, spec Spec) *Actor {
	t.Helper()
	spec.Dir, spec.Log = t.TempDir()+"/recordings", zerolog.Nop()
	a := New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return a
}

// The recorder's paths answer what was asked, or say plainly what is
// wrong: a name no world can have, a method, a format, a world never
// recorded; and a switched world's notes come back out of its trace.
func TestRecorderPaths(t *testing.T) {
	a := serveRecorder(t, Spec{})
	ctx := context.Background()
	if err := a.SetSwitch(ctx, "shown", true); err != nil {
		t.Fatal(err)
	}
	if !a.Recorded("shown") {
		t.Fatal("a world switched on is not published as recorded")
	}
	now := time.Now()
	a.give(note{world: "shown", kind: kindAction, at: now, v: pwtrace.Action{ID: "call@1", Client: "client 1", Method: "Page.navigate", Start: now, End: now.Add(time.Millisecond)}})
	a.give(note{world: "hidden", kind: kindAction, at: now, v: pwtrace.Action{ID: "call@2", Method: "Page.navigate", Start: now}})
	cases := []struct {
		method, path string
		code         int
		has          string
	}{
		{"GET", "/cdpvisor/worlds/a%2Fb/trace", http.StatusBadRequest, "cdpvisor: "},
		{"POST", "/cdpvisor/worlds/shown/trace", http.StatusMethodNotAllowed, "GET reads"},
		{"GET", "/cdpvisor/worlds/shown/trace?format=gif", http.StatusBadRequest, "not a recording format"},
		{"GET", "/cdpvisor/worlds/shown/trace?since=yesterday", http.StatusBadRequest, "RFC 3339"},
		{"GET", "/cdpvisor/worlds/hidden/trace", http.StatusNotFound, "has no recording"},
		{"GET", "/cdpvisor/worlds/shown/recording/frame?page=P", http.StatusBadRequest, "?page=PAGE&t="},
		{"GET", "/cdpvisor/worlds/shown/trace", http.StatusOK, ""},
		{"GET", "/cdpvisor/worlds/shown/recording", http.StatusOK, `"Method":"Page.navigate"`},
		{"GET", "/cdpvisor/recordings", http.StatusOK, `"worlds":1`},
	}
	for _, c := range cases {
		path, _, _ := strings.Cut(c.path, "?")
		if !isRecordingPath(path) {
			t.Errorf("%s is not the recorder's", path)
			continue
		}
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(c.method, c.path, nil)
		r.URL.Path = strings.ReplaceAll(path, "%2F", "/")
		r.URL.RawPath = path
		a.ServeHTTP(rec, r)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.has) {
			t.Errorf("%s %s: %d %.200q, want %d with %q", c.method, c.path, rec.Code, rec.Body.String(), c.code, c.has)
		}
	}
	for _, p := range []string{"/cdpvisor/worlds/shown", "/cdpvisor/worlds/shown/journal", "/cdpvisor/worlds", "/cdpvisor/recordingsx"} {
		if isRecordingPath(p) {
			t.Errorf("%s taken from the worlds' surface", p)
		}
	}
	var tot Totals
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest("GET", TotalsPath, nil))
	if err := json.Unmarshal(rec.Body.Bytes(), &tot); err != nil || tot.Bytes == 0 || tot.NotesDropped != 0 {
		t.Fatalf("totals %+v %v", tot, err)
	}
}

// A fresh world's recording goes when a request forgets it; a switch set
// off is no longer published.
func TestForgottenWorldLosesItsRecording(t *testing.T) {
	a := serveRecorder(t, Spec{})
	ctx := context.Background()
	if err := a.SetSwitch(ctx, "gone", true); err != nil {
		t.Fatal(err)
	}
	a.give(note{world: "gone", kind: kindMark, at: time.Now(), v: pwtrace.Mark{Kind: "crash", Start: time.Now()}})
	if err := a.Readable(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	a.Ended(ctx, "gone", true)
	if err := a.Readable(ctx, "gone"); err == nil {
		t.Fatal("a forgotten world's recording is still there")
	}
	if err := a.SetSwitch(ctx, "gone", false); err != nil || a.Recorded("gone") {
		t.Fatalf("switched off: %v, recorded %v", err, a.Recorded("gone"))
	}
}
