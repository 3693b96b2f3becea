package proxy_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// A client retrying against a browser that never becomes ready causes one
// launch per backoff window, not one per request: the requests in between
// are answered 503 at once with the launch's error and a Retry-After.
func TestRequestsWithinTheLaunchBackoffAreAnsweredAtOnce(t *testing.T) {
	opts := served.FakeLaunch(t, "--fake-never-ready")
	opts.ReadyTimeout = 300 * time.Millisecond
	inst := served.StartInstance(t, opts, proxy.Spec{})
	if code, body := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/version", ""); code != http.StatusServiceUnavailable || !strings.Contains(body, "no answer on the debugging pipe") {
		t.Fatalf("first request: %d %q, want 503 saying what the launch waited for", code, body)
	}
	start := time.Now()
	for i := range 10 {
		code, body, h := actortest.HTTPDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/list", "")
		if code != http.StatusServiceUnavailable || h.Get("Retry-After") != "1" ||
			!strings.Contains(body, "not launching again for") || !strings.Contains(body, "no answer on the debugging pipe") {
			t.Fatalf("request %d within the backoff: %d Retry-After %q %q", i, code, h.Get("Retry-After"), body)
		}
		_, resp, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", nil)
		if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("websocket %d within the backoff: %v %v, want 503", i, resp, err)
		}
	}
	if d := time.Since(start); d > time.Second/2 {
		t.Errorf("20 requests within the backoff took %s", d)
	}
	st, _ := inst.Browser.Status(served.Context(t))
	if st.Generation != 1 || st.NextLaunchAt == nil {
		t.Fatalf("after 21 requests: generation %d, next launch at %v; want one launch and the next try", st.Generation, st.NextLaunchAt)
	}
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/cdpvisor/health", "")
	if code != http.StatusOK || !strings.Contains(body, `"next_launch_at"`) || !strings.Contains(body, `"last_launch_error"`) {
		t.Fatalf("the discovery answer within the backoff: %d %s", code, body)
	}
}
