package worldcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// fakeTraces answers GET /cdpvisor/worlds/NAME/trace as a coordinator
// would: shop's recording, "none" not recorded, "cut" a recording whose
// answer ends before its length; asked records each request's query.
func fakeTraces(t *testing.T, asked *[]string) state.Target {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*asked = append(*asked, r.URL.RawQuery)
		switch r.URL.Path {
		case worldapi.Path + "/shop" + worldapi.TracePath:
			fmt.Fprint(w, "PK-the-trace")
		case worldapi.Path + "/cut" + worldapi.TracePath:
			w.Header().Set("Content-Length", "1000")
			fmt.Fprint(w, "PK-half")
		case worldapi.Path + "/none" + worldapi.TracePath:
			http.Error(w, "cdpvisor: "+worldapi.ErrNotRecorded.Error(), http.StatusNotFound)
		default:
			http.Error(w, "cdpvisor: unknown world", http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return state.Target{Endpoint: srv.URL}
}

// A trace is written whole to NAME-YYYYMMDD-HHMMSS.zip here (or .webm, or
// --output's file), private, its path alone on stdout and a line on
// stderr; --output - writes the recording itself on stdout; --since is
// sent as a time, a duration taken as that long ago.
func TestWriteTrace(t *testing.T) {
	var asked []string
	target := fakeTraces(t, &asked)
	here := t.TempDir()
	t.Chdir(here)
	now := time.Date(2026, 12, 7, 17, 4, 5, 0, time.Local)
	var stdout, stderr bytes.Buffer
	if err := writeTrace(context.Background(), target, Options{Name: "shop", Since: "10m"}, now, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	want := "shop-20261207-170405.zip"
	if stdout.String() != want+"\n" || !strings.Contains(stderr.String(), "wrote world shop's recording to "+want+": 12 B") ||
		!strings.Contains(stderr.String(), "npx playwright show-trace "+want) {
		t.Fatalf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if fi, err := os.Stat(filepath.Join(here, want)); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != 12 {
		t.Fatalf("the file: %v %v", fi, err)
	}
	if since := now.Add(-10 * time.Minute).UTC().Format(time.RFC3339Nano); asked[0] != "since="+strings.ReplaceAll(since, ":", "%3A") {
		t.Errorf("asked %q, want since %s", asked[0], since)
	}

	stdout.Reset()
	stderr.Reset()
	if err := writeTrace(context.Background(), target, Options{Name: "shop", Format: worldapi.FormatWebM}, now, &stdout, &stderr); err != nil ||
		stdout.String() != "shop-20261207-170405.webm\n" || asked[1] != "format=webm" {
		t.Fatalf("webm: %v %q, asked %q", err, stdout.String(), asked[1])
	}

	stdout.Reset()
	stderr.Reset()
	if err := writeTrace(context.Background(), target, Options{Name: "shop", Output: "-", Since: "2026-12-07T16:00:00Z"}, now, &stdout, &stderr); err != nil ||
		stdout.String() != "PK-the-trace" || !strings.Contains(stderr.String(), "to stdout: 12 B") || asked[2] != "since=2026-12-07T16%3A00%3A00Z" {
		t.Fatalf("--output -: %v %q %q, asked %q", err, stdout.String(), stderr.String(), asked[2])
	}
}

// A trace that cannot be had leaves no file, half or whole, and a file
// there before stays as it was; not recorded says how to record it.
func TestWriteTraceLeavesNoHalfFile(t *testing.T) {
	var asked []string
	target := fakeTraces(t, &asked)
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.zip")
	if err := os.WriteFile(kept, []byte("before"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, output, want string }{
		{"cut", kept, "reading the recording"},
		{"none", kept, "world none of the default instance: refused (404 Not Found): the world has no recording"},
		{"ghost", filepath.Join(dir, "ghost.zip"), "unknown world"},
		{"shop", filepath.Join(dir, "no", "such", "dir.zip"), "--output " + filepath.Join(dir, "no", "such", "dir.zip")},
	} {
		var stdout, stderr bytes.Buffer
		err := writeTrace(context.Background(), target, Options{Name: c.name, Output: c.output}, time.Now(), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) || stdout.Len() != 0 {
			t.Errorf("%s: %v, stdout %q; want an error saying %q", c.name, err, stdout.String(), c.want)
		}
		if c.name == "none" {
			said := remedy.Explain(err, remedy.Plain)
			if !errors.Is(err, worldapi.ErrNotRecorded) || !strings.Contains(said, "open it with 'cdpvisor world open none --record', or run the coordinator with --record") {
				t.Errorf("not recorded says %q", said)
			}
		}
	}
	left, _ := os.ReadDir(dir)
	if data, _ := os.ReadFile(kept); len(left) != 1 || string(data) != "before" {
		t.Errorf("left %v, kept.zip holds %q", left, data)
	}
}

// trace's --since: an RFC 3339 time or how long ago; --format: trace or
// webm; both refused before anything is asked.
func TestCheckTrace(t *testing.T) {
	for _, o := range []Options{{Since: "10m"}, {Since: "2026-12-07T16:00:00+01:00"}, {Format: "trace"}, {Format: "webm"}, {}} {
		o.Action, o.Name = "trace", "shop"
		if err := o.Check(); err != nil {
			t.Errorf("%+v refused: %v", o, err)
		}
	}
	for _, o := range []Options{{Since: "12"}, {Since: "-1h"}, {Since: "yesterday"}, {Format: "mp4"}, {Follow: true}, {JSON: false, Forget: true}} {
		o.Action, o.Name = "trace", "shop"
		var ue *UsageError
		if err := o.Check(); !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}
