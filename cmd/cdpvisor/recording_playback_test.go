package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 49, in real browsers: a world recorded by its request
// ({"record":true}) is played back on /ui (Playwright driving a second
// Chromium): two moments show two frames, the actions list has
// Page.navigate, Play moves on, the link downloads the trace
// (testdata/clients/recording_playback.mjs says each check); on loopback,
// and beyond it with a token.
func TestRecordingPlaysBackInTheLiveView(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	t.Run("loopback", func(t *testing.T) {
		s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
		shots := t.TempDir()
		if *updateScreenshots {
			abs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
			if err != nil {
				t.Fatal(err)
			}
			shots = abs
		}
		playBack(t, s.endpoint, chromium, shots)
		for _, png := range []string{"recording-playback-1.png", "recording-playback-2.png"} {
			if st, err := os.Stat(filepath.Join(shots, png)); err != nil || st.Size() < 10000 {
				t.Errorf("screenshot %s: %v", png, err)
			}
		}
	})
	// Beyond loopback the page passes the token it was opened with to the
	// recording's requests, its frames and the trace's link.
	t.Run("with a token", func(t *testing.T) {
		s := startServe(t, []string{"CDPVISOR_TOKEN=" + testToken}, "--listen", "0.0.0.0:0", "--browser", chromium, "--state-dir", t.TempDir())
		playBack(t, s.endpoint, chromium, t.TempDir(), testToken)
	})
}

// playBack runs the script against a coordinator and checks its answer.
func playBack(t *testing.T, args ...string) {
	t.Helper()
	out, err := actortest.NodeScript(t, 3*time.Minute, "recording_playback.mjs", args...)
	if err != nil {
		t.Fatalf("playback: %v: %s", err, out)
	}
	var res struct{ OK bool }
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("playback output %q: %v", out, err)
	}
	t.Logf("%s", out)
}
