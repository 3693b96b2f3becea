package metrics_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/metrics"
)

func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }

func scrape(t *testing.T, a *metrics.Actor) string {
	t.Helper()
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

// waitFor scrapes until every line is there.
func waitFor(t *testing.T, a *metrics.Actor, lines ...string) string {
	t.Helper()
	var body string
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		body = scrape(t, a)
		missing := ""
		for _, l := range lines {
			if !strings.Contains(body, l) {
				missing = l
			}
		}
		if missing == "" {
			return body
		}
		if time.Now().After(end) {
			t.Fatalf("metrics lack %q:\n%s", missing, body)
		}
	}
}

// The metrics follow a browser's event stream: launches, launch time,
// memory while it runs, exits by cause; and the relays' counters.
func TestMetricsFollowTheBrowsersEvents(t *testing.T) {
	a := metrics.New(served.Logger(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = a.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t)})
	if err := a.Watch(served.Context(t), b); err != nil {
		t.Fatal(err)
	}
	ep, err := b.EnsureRunning(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	a.SetClients("test", 3)
	a.Traffic().ToBrowserMessages.Add(2)
	body := waitFor(t, a, `cdpvisor_browser_launches_total{instance="test"} 1`, `cdpvisor_browser_launch_seconds_count{instance="test"} 1`,
		`cdpvisor_clients{instance="test"} 3`, `cdpvisor_relay_messages_total{direction="to_browser"} 2`, `cdpvisor_browser_memory_bytes{instance="test"`)
	if !strings.Contains(body, "# TYPE cdpvisor_browser_launch_seconds histogram") {
		t.Fatal("the launch time is not a histogram")
	}
	actortest.KillPid(t, ep.Pid)
	body = waitFor(t, a, `cdpvisor_browser_exits_total{cause="crash",instance="test"} 1`, "# HELP cdpvisor_browser_exits_total")
	if strings.Contains(body, "cdpvisor_browser_memory_bytes{") {
		t.Fatal("memory is still reported for a browser that is gone")
	}
	a.Forget("test")
	if body := scrape(t, a); strings.Contains(body, `instance="test"`) {
		t.Fatalf("a forgotten instance's series remain:\n%s", body)
	}
}
