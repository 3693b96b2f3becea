package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// go-rod, unchanged, connects to the endpoint (its websocket sends the key
// "nil", which Chromium takes) on the whole browser and in a world, and a
// page it opens reads a local page.
func TestRodConnectsToTheEndpointAndAWorld(t *testing.T) {
	chromium := actortest.Chromium(t)
	const said = "rod reached this page"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>rod</title><p>%s</p>", said)
	}))
	defer site.Close()
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	ws := strings.Replace(s.endpoint, "http://", "ws://", 1)
	for name, endpoint := range map[string]string{
		"whole endpoint": s.endpoint, // launcher.ResolveURL reads its /json/version
		"world":          ws + "/context/rod/devtools/browser",
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			client := actortest.StartLineProgram(t, time.Minute, "rod_connect", endpoint, site.URL)
			text, ok := client.Next()
			if err := client.Wait(); err != nil || !ok {
				t.Fatalf("rod_connect to %s: %v (printed %q)", endpoint, err, text)
			}
			var line struct{ Text string }
			if err := json.Unmarshal([]byte(text), &line); err != nil || line.Text != said {
				t.Fatalf("rod_connect to %s printed %q, want the text %q", endpoint, text, said)
			}
		})
	}
}
