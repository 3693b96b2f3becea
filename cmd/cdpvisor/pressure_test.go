package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/pacing"
)

// crowdSite is a local page whose load takes a while: its image answers
// after 150 ms, so a load holds its slot that long.
func crowdSite(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>crowd</title><p>a page of the crowd</p><img src="/slow.svg">`)
	})
	mux.HandleFunc("/slow.svg", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		w.Header().Set("Content-Type", "image/svg+xml")
		fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	return site.URL + "/page"
}

func readPressure(t *testing.T, endpoint string) pacing.Pressure {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+pacing.PressurePath, "")
	var p pacing.Pressure
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", pacing.PressurePath, code, body)
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatalf("pressure %s: %v", body, err)
	}
	return p
}

// Six Puppeteer agents, each in its world, load a page whose load takes
// 150 ms four times each, at once, through serve --max-loads 1: read while
// they run, the pressure finds them (six worlds, loads waiting, never more
// than one running); read after, every load let go and counted, the
// browser's CPU and memory told, and the same figures in /metrics.
func TestPressureTellsWhatACrowdRan(t *testing.T) {
	chromium := actortest.Chromium(t)
	page := crowdSite(t)
	stateDir := t.TempDir()
	if err := os.Chmod(stateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--browser", chromium, "--state-dir", stateDir, "--max-loads", "1")
	const agents, loops = 6, 4
	if p := readPressure(t, s.endpoint); p.Worlds != 0 || p.MaxLoads != 1 || p.LoadsRunning != 0 || !p.IsAvailable {
		t.Fatalf("pressure before the crowd: %+v", p)
	}

	var mu sync.Mutex
	var most pacing.Pressure // the most of each figure seen while the crowd ran
	stop, polled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(polled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(40 * time.Millisecond):
			}
			resp, err := http.Get(s.endpoint + pacing.PressurePath) // not t's: off the test's goroutine
			if err != nil {
				continue
			}
			var p pacing.Pressure
			err = json.NewDecoder(resp.Body).Decode(&p)
			resp.Body.Close()
			if err != nil {
				continue
			}
			mu.Lock()
			most.Worlds, most.Pages = max(most.Worlds, p.Worlds), max(most.Pages, p.Pages)
			most.LoadsRunning, most.LoadsQueued = max(most.LoadsRunning, p.LoadsRunning), max(most.LoadsQueued, p.LoadsQueued)
			mu.Unlock()
		}
	}()
	began := time.Now()
	out, err := actortest.NodeScript(t, 120*time.Second, "crowd_pressure.mjs", s.endpoint, fmt.Sprint(agents), fmt.Sprint(loops), page)
	t.Logf("the crowd ran %v", time.Since(began))
	close(stop)
	<-polled
	if err != nil || !strings.Contains(out, `"ok":true`) {
		t.Fatalf("the crowd: %v\n%s", err, out)
	}
	mu.Lock()
	during := most
	mu.Unlock()
	if during.Worlds != agents || during.LoadsRunning != 1 || during.LoadsQueued < 2 || during.Pages < agents {
		t.Errorf("during the crowd the pressure told at most %d worlds, %d pages, %d loads running, %d queued; want %d worlds, at least %d pages, 1 running (--max-loads 1), some queued",
			during.Worlds, during.Pages, during.LoadsRunning, during.LoadsQueued, agents, agents)
	}

	// After: nothing runs or waits; the minute's window holds every load.
	var after pacing.Pressure
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		after = readPressure(t, s.endpoint)
		if (after.LoadsRunning == 0 && after.BrowserCPUPercent != nil) || time.Now().After(end) {
			break
		}
	}
	if after.Worlds != agents || after.LoadsRunning != 0 || after.LoadsQueued != 0 || after.WaitedMS.Loads < agents*loops ||
		after.WaitedMS.P99 <= 0 || after.WaitedMS.P99 < after.WaitedMS.P50 || after.BrowserMemoryBytes < 50<<20 || after.BrowserCPUPercent == nil {
		t.Errorf("after the crowd: %+v; want %d worlds, nothing running or queued, at least %d loads waited for (p99 > 0), the browser's memory and CPU",
			after, agents, agents*loops)
	}
	_, metrics, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/metrics", "")
	for _, want := range []string{
		fmt.Sprintf(`cdpvisor_worlds{instance=%q} %d`, after.Instance, agents),
		fmt.Sprintf(`cdpvisor_loads_running{instance=%q} 0`, after.Instance),
		fmt.Sprintf(`cdpvisor_available{instance=%q} 1`, after.Instance),
		`cdpvisor_load_waited_milliseconds{instance="` + after.Instance + `",quantile="0.99"}`,
		`cdpvisor_browser_pss_bytes{instance="` + after.Instance + `"}`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
