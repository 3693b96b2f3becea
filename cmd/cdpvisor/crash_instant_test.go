package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// instantRequest is one kind of request sent in the instant of a crash.
type instantRequest struct {
	method, path string
	socket       bool // a websocket upgrade
}

// Requests that arrive 0–100 ms after a kill -9 of the browser (dying, or
// not yet noticed, or relaunching) wait for the next browser: 200 of each
// /json request and of websocket upgrades on the whole endpoint, then 100
// of each in a world; not one is answered other than 2xx (101).
func TestRequestsInTheInstantOfACrashWaitForTheNextBrowser(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	for _, c := range []struct {
		name, prefix string
		kills, each  int
	}{
		{"whole", "", 4, 200},
		// A world's requests ask more of the browser (its /json/new polls the
		// list until the page is in it): fewer at a time, over more kills,
		// so that the new browser is not too busy to answer the hang probe
		// on a machine of 2 cores.
		{"world", "/context/instant", 4, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			killsUnderRequests(t, s, c.kills, c.each/c.kills, []instantRequest{
				{method: http.MethodGet, path: c.prefix + "/json/list"},
				{method: http.MethodPut, path: c.prefix + "/json/new?about:blank"},
				{method: http.MethodGet, path: c.prefix + "/json/version"},
				{path: c.prefix + "/devtools/browser", socket: true},
			})
		})
	}
}

// killsUnderRequests kills the browser kills times, each time sending
// perKill of each kind of request spread over the 100 ms after the kill,
// and fails the test for each request not answered 2xx.
func killsUnderRequests(t *testing.T, s *served, kills, perKill int, kinds []instantRequest) {
	const spread = 100 * time.Millisecond
	ws := strings.Replace(s.endpoint, "http://", "ws://", 1)
	client := &http.Client{Timeout: time.Minute}
	defer client.CloseIdleConnections()
	ask := func(ctx context.Context, k instantRequest) (int, string) {
		if k.socket {
			c, resp, err := websocket.DefaultDialer.DialContext(ctx, ws+k.path, nil)
			if err != nil {
				if resp != nil {
					body, _ := io.ReadAll(resp.Body)
					return resp.StatusCode, string(body)
				}
				return 0, err.Error()
			}
			c.Close()
			return resp.StatusCode, ""
		}
		req, _ := http.NewRequestWithContext(ctx, k.method, s.endpoint+k.path, nil)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	failures, whys := map[string]int{}, map[string]int{}
	var mu sync.Mutex
	for kill := range kills {
		if code, body := ask(t.Context(), kinds[2]); code != http.StatusOK {
			t.Fatalf("before kill %d: %d %s", kill, code, body)
		}
		browsers := s.browsers()
		if len(browsers) != 1 {
			t.Fatalf("kill %d: browsers %v, want one", kill, browsers)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		if err := syscall.Kill(browsers[0], syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		var wg sync.WaitGroup
		n := perKill * len(kinds)
		for i := range n {
			k := kinds[i%len(kinds)]
			at := killed.Add(spread * time.Duration(i) / time.Duration(n))
			wg.Go(func() {
				time.Sleep(time.Until(at))
				code, body := ask(ctx, k)
				if code/100 != 2 && code != http.StatusSwitchingProtocols {
					mu.Lock()
					failures[k.path]++
					why := fmt.Sprintf("kill %d: %s %s: %d %s", kill, k.method, k.path, code, strings.TrimSpace(body))
					if whys[why]++; whys[why] == 1 {
						t.Logf("%s (at %s)", why, time.Duration(i)*spread/time.Duration(n))
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		cancel()
		waitGone(t, browsers[0])
	}
	for path, n := range failures {
		t.Errorf("%s: %d of %d not answered 2xx", path, n, kills*perKill)
	}
}
