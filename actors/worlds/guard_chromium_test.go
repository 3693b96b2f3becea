package worlds_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// udpCounter counts the datagrams a loopback UDP port gets (WebRTC's STUN).
func udpCounter(t *testing.T) (int, *atomic.Int32) {
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	done := make(chan struct{})
	go func() { // ends when the socket closes, at the test's end
		defer close(done)
		buf := make([]byte, 2048)
		for {
			if _, _, err := c.ReadFrom(buf); err != nil {
				return
			}
			n.Add(1)
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return c.LocalAddr().(*net.UDPAddr).Port, &n
}

// guardPage is server A's page: it asks B (?b=host:port) for every kind of
// request a page makes, and WebRTC for a STUN binding at udp (127.0.0.1).
const guardPage = `<!doctype html><title>A</title><body><script>
const b = new URLSearchParams(location.search).get('b');
window.results = {};
const settle = (k, p, ms) => Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error('timeout')), ms || 5000))])
  .then(v => { results[k] = typeof v === 'string' ? v : 'ok'; }, e => { results[k] = 'failed: ' + e.message; });
const steps = b ? [
  settle('img', new Promise((ok, no) => { const i = new Image(); i.onload = ok; i.onerror = () => no(new Error('error')); i.src = 'http://' + b + '/img.png'; })),
  settle('iframe', new Promise(ok => { const f = document.createElement('iframe'); f.src = 'http://' + b + '/frame'; f.onload = () => ok('loaded'); document.body.appendChild(f); })),
  settle('fetch', fetch('http://' + b + '/fetch', { mode: 'no-cors' })),
  settle('localhost', fetch('http://localhost:' + location.port + '/local', { mode: 'no-cors' })),
  settle('websocket', new Promise((ok, no) => { const w = new WebSocket('ws://' + b + '/ws'); w.onopen = () => ok('open'); w.onerror = () => no(new Error('error')); })),
  settle('worker', new Promise((ok, no) => { const w = new Worker('/worker.js?b=' + b); w.onmessage = e => e.data === 'ok' ? ok() : no(new Error(e.data)); })),
  settle('serviceWorker', navigator.serviceWorker.register('/sw.js?b=' + b).then(() => new Promise(r => setTimeout(r, 1500)))),
  settle('webrtc', (async () => {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:UDPPORT' }] });
    pc.createDataChannel('x');
    const cands = [];
    pc.onicecandidate = e => { if (e.candidate) cands.push(e.candidate.candidate); };
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise(r => setTimeout(r, 2500));
    pc.close();
    return cands.length + ' candidates';
  })(), 8000),
] : [];
Promise.all(steps).then(() => { window.allDone = true; });
</script>`

func guardServerA(udpPort int) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, strings.Replace(guardPage, "UDPPORT", fmt.Sprint(udpPort), 1))
	})
	mux.HandleFunc("/local", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "local") })
	mux.HandleFunc("/worker.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `fetch('http://' + new URLSearchParams(location.search).get('b') + '/worker', {mode: 'no-cors'}).then(() => postMessage('ok'), e => postMessage('failed: ' + e.message));`)
	})
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `self.addEventListener('install', e => e.waitUntil(fetch('http://' + new URLSearchParams(location.search).get('b') + '/sw', {mode: 'no-cors'}).catch(() => {})));`)
	})
	return mux
}

type guardRun struct {
	Page        map[string]string
	NewContextB string
	NewContextA string
	OwnProxy    string
}

func runGuardClient(t *testing.T, endpoint, pageURL, b string) guardRun {
	t.Helper()
	out, err := actortest.NodeScript(t, 90*time.Second, "guard_world.mjs", endpoint, pageURL, b)
	if err != nil {
		t.Fatalf("guard_world.mjs on %s: %v (stdout %q)", endpoint, err, out)
	}
	var r guardRun
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil {
		t.Fatalf("guard_world.mjs: %v in %q", err, out)
	}
	t.Logf("%s: %+v", endpoint, r)
	return r
}

// A world with allow_hosts [127.0.0.1:A], in real Chromium driven by
// Playwright: A's page loads; its image, iframe, fetch, websocket, worker,
// service worker and WebRTC requests to B fail and B sees no connection
// (nor B's UDP port a datagram); a newContext inside the world is held to
// the same policy; a context with the client's own proxy is refused. The
// unprefixed endpoint and another world reach B.
func TestGuardedWorldInRealChromium(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	udpPort, datagrams := udpCounter(t)
	a := actortest.StartCounting(t, guardServerA(udpPort))
	b := actortest.StartCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "B") }))
	inst := served.StartInstance(t, launch.Options{
		Browser:  launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium},
		Headless: true, ReadyTimeout: 20 * time.Second, StopGrace: 2 * time.Second,
	}, proxy.Spec{})
	policy, err := guard.ParsePolicy([]string{a.HostPort()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if made, err := inst.Worlds.MakeGuarded(served.Context(t), "guarded", worlds.Network{Policy: policy}, false); err != nil || !made {
		t.Fatalf("MakeGuarded: %v %v", made, err)
	}

	r := runGuardClient(t, inst.Proxy.Endpoint()+"/context/guarded", a.URL+"/", b.HostPort())
	for _, k := range []string{"img", "fetch", "websocket", "worker"} {
		if !strings.HasPrefix(r.Page[k], "failed") {
			t.Errorf("the page's %s request to B: %q, want failed", k, r.Page[k])
		}
	}
	// A's own server by another name (localhost, not allowed by name): a
	// private address is reached only when named.
	if !strings.HasPrefix(r.Page["localhost"], "failed") {
		t.Errorf("the page's fetch of A as localhost: %q, want failed", r.Page["localhost"])
	}
	if r.Page["webrtc"] != "0 candidates" {
		t.Errorf("WebRTC in the world: %q", r.Page["webrtc"])
	}
	if !strings.HasPrefix(r.NewContextB, "failed") || r.NewContextA != "ok" {
		t.Errorf("a newContext in the world: B %q, A %q; want B failed, A ok", r.NewContextB, r.NewContextA)
	}
	if !strings.Contains(r.OwnProxy, "refused in world") {
		t.Errorf("Target.createBrowserContext with a proxy of its own: %q", r.OwnProxy)
	}
	if n := b.Conns.Load(); n != 0 {
		t.Fatalf("B saw %d connections from the guarded world", n)
	}
	if n := datagrams.Load(); n != 0 {
		t.Fatalf("the UDP port saw %d datagrams from the guarded world", n)
	}
	if a.Conns.Load() == 0 {
		t.Fatal("A saw no connection")
	}
	info, err := inst.Worlds.Policy(served.Context(t), "guarded")
	if err != nil || info == nil || info.Counts[b.HostPort()].Denied == 0 || info.Counts[a.HostPort()].Reached == 0 {
		t.Fatalf("the world's policy and counts: %+v %v", info, err)
	}
	aPort := a.Listener.Addr().(*net.TCPAddr).Port
	if info.Counts[fmt.Sprintf("localhost:%d", aPort)].Denied == 0 {
		t.Errorf("no denial of localhost:%d counted: %+v", aPort, info.Counts)
	}

	// Killed, the browser comes back with the world guarded as before.
	st, err := inst.Browser.Status(served.Context(t))
	if err != nil || st.Pid == 0 {
		t.Fatalf("browser status: %+v %v", st, err)
	}
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	served.WaitState(t, inst.Browser, "idle")
	r = runGuardClient(t, inst.Proxy.Endpoint()+"/context/guarded", a.URL+"/", b.HostPort())
	if !strings.HasPrefix(r.Page["fetch"], "failed") || !strings.HasPrefix(r.NewContextB, "failed") || r.NewContextA != "ok" {
		t.Errorf("after a crash: %+v", r)
	}
	if n := b.Conns.Load(); n != 0 {
		t.Fatalf("B saw %d connections from the guarded world after a crash", n)
	}
	if st2, err := inst.Browser.Status(served.Context(t)); err != nil || st2.Generation <= st.Generation {
		t.Fatalf("no new browser after the kill: generation %d then %d (%v)", st.Generation, st2.Generation, err)
	}

	statuses, err := inst.Control.WorldStatuses(served.Context(t))
	if err != nil || len(statuses) != 1 || statuses[0].Policy == nil || statuses[0].Policy.Hosts[b.HostPort()].Denied == 0 {
		t.Fatalf("the world's status: %+v %v", statuses, err)
	}
	list, err := inst.Worlds.List(served.Context(t))
	if err != nil || len(list) != 1 || list[0].Policy == nil || list[0].Policy.AllowHosts[0] != a.HostPort() {
		t.Fatalf("the list: %+v %v", list, err)
	}

	// Another world and the whole browser: B is theirs to reach.
	if _, err := inst.Worlds.Make(served.Context(t), "open"); err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{inst.Proxy.Endpoint() + "/context/open", inst.Proxy.Endpoint()} {
		before := b.Conns.Load()
		r := runGuardClient(t, ep, a.URL+"/", b.HostPort())
		if r.Page["fetch"] != "ok" || r.Page["worker"] != "ok" || r.NewContextB != "ok" {
			t.Errorf("%s: %+v, want B reached", ep, r)
		}
		if b.Conns.Load() == before {
			t.Errorf("%s: B saw no connection", ep)
		}
	}
	if n := datagrams.Load(); n != 0 {
		t.Errorf("the UDP port saw %d datagrams: WebRTC's UDP is off browser-wide", n)
	}
}
