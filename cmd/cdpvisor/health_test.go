package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// report fetches /health and its status code.
func report(t *testing.T, endpoint string) (state.Report, int) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+state.ReportPath, "")
	var r state.Report
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("/health: %d %q: %v", code, body, err)
	}
	return r, code
}

// metric reads one sample of the Prometheus text on /metrics (-1 when the
// series is not there).
func metric(t *testing.T, endpoint, series string) float64 {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+"/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(body)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func waitReport(t *testing.T, endpoint string, ok func(state.Report) bool) state.Report {
	t.Helper()
	var r state.Report
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if r, _ = report(t, endpoint); ok(r) {
			return r
		}
		if time.Now().After(end) {
			var last any
			if len(r.Instances) > 0 && r.Instances[0].LastExit != nil {
				last = *r.Instances[0].LastExit
			}
			t.Fatalf("/health never became as expected: %+v (last exit %+v)", r, last)
		}
	}
}

// A real Chromium stopped with SIGSTOP under a live Playwright Browser is
// declared hung, killed and relaunched: the same Browser goes on working
// with no 'disconnected', the request sent into the hang is answered, and
// status, /health and /metrics say hung.
func TestHungChromiumUnderPlaywrightIsReplaced(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--hang-timeout", "2s", "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, 2*time.Minute, "playwright_hang.mjs", s.endpoint)
	if text, ok := client.Next(); !ok || text != `{"ready":1}` {
		t.Fatalf("client: %q", text)
	}
	browsers := s.browsers()
	if len(browsers) != 1 {
		t.Fatalf("browsers %v, want one", browsers)
	}
	if err := syscall.Kill(browsers[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	client.Go()
	text, ok := client.Next()
	var final struct {
		OK           bool
		Inflight     string
		Disconnected bool
	}
	if !ok || json.Unmarshal([]byte(text), &final) != nil || !final.OK || final.Disconnected || final.Inflight == "" {
		t.Fatalf("client's last line %q", text)
	}
	t.Logf("the request sent into the hang: %s", final.Inflight)
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, browsers[0])
	r, code := report(t, s.endpoint)
	inst := r.Instances[0]
	if code != http.StatusOK || inst.LastExit == nil || inst.LastExit.Cause != "hung" || inst.Restarts != 1 {
		t.Fatalf("/health after the hang: %d %+v", code, inst)
	}
	if got := metric(t, s.endpoint, fmt.Sprintf(`cdpvisor_browser_exits_total{cause="hung",instance=%q}`, inst.ID)); got != 1 {
		t.Fatalf("hung exits counted: %v, want 1", got)
	}
	out, _, _ := runCLI(t, nil, "status", "--json", "--state-dir", stateDirOf(t, s))
	if !strings.Contains(out, `"cause": "hung"`) {
		t.Fatalf("status --json does not show the hang: %s", out)
	}
}

// stateDirOf is the --state-dir a served coordinator was started with.
func stateDirOf(t *testing.T, s *served) string {
	t.Helper()
	args := s.cmd.Args
	for i, a := range args {
		if a == "--state-dir" && i+1 < len(args) {
			return args[i+1]
		}
	}
	t.Fatal("serve was started without --state-dir")
	return ""
}

// The idle stop ends a real Chromium nobody is connected to, never one with
// a silent client, and the next demand launches again; /health and
// /metrics follow, and neither launches a browser.
func TestIdleStopHealthAndMetricsOnChromium(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--idle-stop", "1s", "--state-dir", t.TempDir())
	r, code := report(t, s.endpoint)
	if code != http.StatusOK || r.Status != state.StatusIdle || len(r.Instances) != 1 || r.Instances[0].Pid != 0 || len(s.browsers()) != 0 {
		t.Fatalf("/health before any demand: %d %+v, browsers %v", code, r, s.browsers())
	}
	if got := metric(t, s.endpoint, "cdpvisor_clients"); got != -1 && got != 0 {
		t.Fatalf("clients before any connection: %v", got)
	}
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/health", "evil.example"); code != http.StatusForbidden {
		t.Fatalf("/health with a foreign Host: %d, want 403", code)
	}
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/metrics", "evil.example"); code != http.StatusForbidden {
		t.Fatalf("/metrics with a foreign Host: %d, want 403", code)
	}

	silent, _, err := websocket.DefaultDialer.Dial(strings.Replace(s.endpoint, "http", "ws", 1)+"/devtools/browser", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := r.Instances[0].ID
	// The upgrade answers before the relay is counted: the count follows.
	clients := func() float64 { return metric(t, s.endpoint, fmt.Sprintf(`cdpvisor_clients{instance=%q}`, id)) }
	if !eventually(5*time.Second, func() bool { return clients() == 1 }) {
		t.Fatalf("clients with one connected: %v", clients())
	}
	time.Sleep(2500 * time.Millisecond) // more than the idle time, with a silent client
	r = waitReport(t, s.endpoint, func(r state.Report) bool { return r.Status == state.StatusOK })
	pid := r.Instances[0].Pid
	if r.Instances[0].Clients != 1 || r.Instances[0].MemoryBytes < 10<<20 || r.Instances[0].UptimeSeconds < 2 {
		t.Fatalf("/health with a silent client: %+v", r.Instances[0])
	}
	silent.Close()
	r = waitReport(t, s.endpoint, func(r state.Report) bool { return r.Instances[0].LastExit != nil })
	if ex := r.Instances[0].LastExit; ex.Cause != "idle" || !ex.Planned || r.Status != state.StatusIdle {
		t.Fatalf("after the idle time: %+v", r)
	}
	waitGone(t, pid)
	if got := metric(t, s.endpoint, fmt.Sprintf(`cdpvisor_browser_exits_total{cause="idle",instance=%q}`, id)); got != 1 {
		t.Fatalf("idle exits counted: %v", got)
	}
	endpointAnswers(t, s.endpoint) // the next demand launches again
	if got := metric(t, s.endpoint, fmt.Sprintf(`cdpvisor_browser_launches_total{instance=%q}`, id)); got != 2 {
		t.Fatalf("launches counted: %v, want 2", got)
	}
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/metrics", "")
	for _, want := range []string{"# HELP cdpvisor_browser_launch_seconds", "# TYPE cdpvisor_browser_launch_seconds histogram",
		`cdpvisor_relay_messages_total{direction="to_browser"}`, `cdpvisor_relay_bytes_total{direction="to_client"}`,
		"# TYPE cdpvisor_browser_memory_bytes gauge"} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("/metrics lacks %q", want)
		}
	}
}

// After a failed launch, with no browser running, /health answers 503 and
// says why.
func TestHealthIs503AfterAFailedLaunch(t *testing.T) {
	s := startServe(t, nil, "--browser", "/bin/false", "--state-dir", t.TempDir())
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/json/version", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("a demand on /bin/false: %d, want 503", code)
	}
	r, code := report(t, s.endpoint)
	if code != http.StatusServiceUnavailable || r.Status != state.StatusDegraded || !strings.Contains(r.Error, "launch failed") ||
		r.Instances[0].LastLaunchError == "" {
		t.Fatalf("/health after a failed launch: %d %+v", code, r)
	}
}

// Bad durations are refused, naming the flag and the value.
func TestHealthFlagsRefuseBadDurations(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"serve", "--hang-timeout", "abc"}, nil, "--hang-timeout abc: not a duration"},
		{[]string{"serve", "--hang-timeout=-1s"}, nil, "--hang-timeout -1s"},
		{[]string{"mcp", "--idle-stop=-2m"}, nil, "--idle-stop -2m"},
		{[]string{"serve"}, []string{"CDPVISOR_HANG_TIMEOUT=soon"}, "CDPVISOR_HANG_TIMEOUT=soon: not a duration"},
	} {
		_, stderr, code := runCLI(t, c.env, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 mentioning %q", c.env, c.args, code, stderr, c.want)
		}
	}
}

// --debug-pprof serves the Go runtime's profiles on the endpoint, under its
// Host check, for a leak hunt; without it the path is not cdpvisor's.
func TestDebugPprofServesTheRuntimesProfiles(t *testing.T) {
	plain := startServe(t, nil, "--browser", "/bin/false", "--state-dir", t.TempDir())
	if code, body, _ := actortest.HTTPDo(t, http.MethodGet, plain.endpoint+"/debug/pprof/heap", ""); code == http.StatusOK {
		t.Fatalf("profiles served without --debug-pprof: %d %.80q", code, body)
	}

	s := startServe(t, nil, "--browser", "/bin/false", "--debug-pprof", "--state-dir", t.TempDir())
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/debug/pprof/", "")
	if code != http.StatusOK || !strings.Contains(body, "heap ") || !strings.Contains(body, "goroutine ") {
		t.Fatalf("the list: %d %q", code, body)
	}
	code, body, h := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/debug/pprof/heap?gc=1", "")
	if code != http.StatusOK || !strings.HasPrefix(body, "\x1f\x8b") || h.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("the heap profile: %d %s, %d bytes, want pprof's gzipped format", code, h.Get("Content-Type"), len(body))
	}
	if code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/debug/pprof/goroutine?debug=1", ""); code != http.StatusOK || !strings.Contains(body, "goroutine profile: total") {
		t.Fatalf("goroutines as text: %d %.80q", code, body)
	}
	for _, c := range []struct {
		path, host string
		want       int
	}{
		{"/debug/pprof/heap", "evil.example", http.StatusForbidden},
		{"/debug/pprof/nosuch", "", http.StatusNotFound},
		{"/debug/pprof/heap?debug=x", "", http.StatusBadRequest},
	} {
		if code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+c.path, c.host); code != c.want || !strings.Contains(body, "cdpvisor") {
			t.Errorf("%s (Host %q): %d %q, want %d and cdpvisor's words", c.path, c.host, code, body, c.want)
		}
	}
}
