package relay_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// crashNow makes a fake browser started with --fake-crash-after exit on
// this message, which has no id: nothing is left awaiting an answer, so the
// relay stays degraded until the client's next request.
func crashNow(t *testing.T, cl *actortest.CDPClient) {
	t.Helper()
	if err := cl.Conn.WriteMessage(websocket.TextMessage, []byte(`{"method":"Browser.getVersion"}`)); err != nil {
		t.Fatal(err)
	}
}

func generation(t *testing.T, inst *served.Instance) int {
	st, err := inst.Browser.Status(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	return st.Generation
}

func TestCrashWithoutWeakSignalDegradesThenRecovers(t *testing.T) {
	// After the crash the new browser (with the same flag) takes the
	// replayed discovery and the request: 2 messages.
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=4"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setDiscoverTargets", `{"discover":true}`, "")
	cl.Call(2, "Browser.getVersion", "", "")
	cl.Call(3, "Browser.getVersion", "", "")
	crashNow(t, cl)
	served.WaitState(t, inst.Browser, fsm.BrowserIdle) // the client stays connected meanwhile
	// Browser.close without a weak signal is a request like any other: it
	// would be queued and recover; use a plain request instead.
	cl.Send(4, "Target.getTargets", "", "")
	m, events := cl.Answer(4)
	if m.Error != nil {
		t.Fatalf("first request after the crash: %s", m.Error)
	}
	var attached, created int
	for _, ev := range events {
		switch ev.Method {
		case "Target.attachedToTarget":
			attached++
		case "Target.targetCreated":
			created++
		}
	}
	// What the client asked for (discovery) and nothing more: an
	// auto-attach it never asked for would hold every new page for a
	// debugger it never resumes.
	if created == 0 || attached != 0 {
		t.Fatalf("events before the first answer: %+v; want the replayed discovery's targetCreated and no attachedToTarget", events)
	}
	if g := generation(t, inst); g != 2 {
		t.Fatalf("generation %d, want 2", g)
	}
}

func TestWeakSignalThenCrashShortCircuitsBrowserClose(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=2", "--fake-detach-before-crash"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`, "")
	crashNow(t, cl)
	if ev := cl.Next(); ev.Method != "Inspector.detached" {
		t.Fatalf("event %+v, want the weak signal forwarded", ev)
	}
	served.WaitState(t, inst.Browser, fsm.BrowserIdle)
	cl.Send(-9999, "Browser.close", "", "")
	m, _ := cl.Answer(-9999)
	if m.Error != nil || string(m.Result) != "{}" {
		t.Fatalf("Browser.close: %+v, want a synthetic {}", m)
	}
	time.Sleep(300 * time.Millisecond)
	if st, _ := inst.Browser.Status(served.Context(t)); st.State != fsm.BrowserIdle || st.Generation != 1 {
		t.Fatalf("the short-circuited Browser.close relaunched a browser: %+v", st)
	}
}

func TestWeakSignalsAloneChangeNothing(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`, "")
	created := cl.Call(2, "Target.createTarget", `{"url":"about:blank"}`, "")
	var target struct{ TargetID string }
	_ = json.Unmarshal(created.Result, &target)
	cl.Send(3, "Target.closeTarget", `{"targetId":"`+target.TargetID+`"}`, "")
	_, events := cl.Answer(3)
	for len(events) == 0 || events[len(events)-1].Method != "Target.detachedFromTarget" {
		events = append(events, cl.Next())
	}
	cl.Call(4, "Browser.getVersion", "", "")
	if g := generation(t, inst); g != 1 {
		t.Fatalf("generation %d: weak signals alone relaunched the browser", g)
	}
}

func TestBrowserCloseWhileConnectedReachesTheBrowser(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	events, unsubscribe := served.Subscribe(t, inst.Browser)
	defer unsubscribe()
	cl := inst.DialCDP(t)
	served.Expect[browser.Ready](t, events)
	m := cl.Call(-9999, "Browser.close", "", "")
	if string(m.Result) != "{}" {
		t.Fatalf("answer %+v", m)
	}
	if ex := served.Expect[browser.Exited](t, events); ex.Planned {
		t.Fatalf("the browser's own exit after Browser.close: %+v", ex)
	}
	// The client is still connected, and its next request relaunches.
	cl.Call(1, "Browser.getVersion", "", "")
	if g := generation(t, inst); g != 2 {
		t.Fatalf("generation %d, want 2", g)
	}
}

func TestQueueOrderAndIDsAcrossRecovery(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-start-delay=300ms"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Browser.getVersion", "", "")
	ep, _ := inst.Browser.EnsureRunning(served.Context(t))
	actortest.KillPid(t, ep.Pid)
	served.WaitState(t, inst.Browser, fsm.BrowserIdle)
	// Ids a client may use, including Playwright's and the relay's own base.
	ids := []int64{-9999, 7, relay.InternalIDBase, relay.InternalIDBase - 1, 0}
	for _, id := range ids {
		cl.Send(id, "Target.getTargets", "", "")
	}
	for _, want := range ids {
		m, _ := cl.Answer(want)
		if m.Error != nil {
			t.Fatalf("request %d: %s", want, m.Error)
		}
	}
	sent := map[int64]bool{1: true}
	for _, id := range ids {
		sent[id] = true
	}
	for _, m := range cl.Seen {
		if m.ID != nil && !sent[*m.ID] {
			t.Fatalf("the client received an answer to id %d it never sent", *m.ID)
		}
	}
	// Every id answered exactly once.
	count := map[int64]int{}
	for _, m := range cl.Seen {
		if m.ID != nil {
			count[*m.ID]++
		}
	}
	for id, n := range count {
		if n != 1 {
			t.Fatalf("id %d answered %d times", id, n)
		}
	}
}

func TestBootstrapFailureThenSuccess(t *testing.T) {
	// The fake fails auto-attach in the first process that can create the
	// marker: none can while its directory is missing, so the client's own
	// auto-attach on the first browser succeeds, its replay on the second
	// fails, and the third takes it.
	markerDir := filepath.Join(t.TempDir(), "later")
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=3", "--fake-autoattach-fail-once="+filepath.Join(markerDir, "failed-once")), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`, "")
	if err := os.Mkdir(markerDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cl.Call(2, "Browser.getVersion", "", "")
	crashNow(t, cl)
	m := cl.Call(4, "Browser.getVersion", "", "")
	if m.Error != nil {
		t.Fatalf("after a failed then a good bootstrap: %s", m.Error)
	}
	// gen 1 crashed, gen 2 refused the replayed auto-attach, gen 3 took it.
	if g := generation(t, inst); g != 3 {
		t.Fatalf("generation %d, want 3 (a fresh browser after the failed bootstrap)", g)
	}
}

func TestBootstrapFailureTwiceClosesWithAReason(t *testing.T) {
	// A browser that refuses the client's auto-attach, again on each
	// relaunch: the client cannot get what it asked for.
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=2", "--fake-autoattach-fail"), proxy.Spec{})
	cl := inst.DialCDP(t)
	if m, _ := cl.AnswerOf(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`); m.Error == nil {
		t.Fatalf("the fake took the auto-attach it is told to refuse: %+v", m)
	}
	crashNow(t, cl)
	cl.Send(3, "Browser.getVersion", "", "")
	err := cl.WaitClosed()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseInternalServerErr || !strings.Contains(ce.Text, "could not recover") {
		t.Fatalf("close %v, want 1011 saying recovery failed", err)
	}
	waitClients(t, inst, 0)
}

func waitClients(t *testing.T, inst *served.Instance, want int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		n, err := inst.Proxy.Clients(served.Context(t))
		if err == nil && n == want {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("clients %d, want %d", n, want)
		}
	}
}

func TestClientHangUpInEachState(t *testing.T) {
	t.Run("connected", func(t *testing.T) {
		inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
		cl := inst.DialCDP(t)
		cl.Call(1, "Browser.getVersion", "", "")
		waitClients(t, inst, 1)
		cl.Conn.Close()
		waitClients(t, inst, 0)
	})
	t.Run("degraded", func(t *testing.T) {
		inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=1"), proxy.Spec{})
		cl := inst.DialCDP(t)
		crashNow(t, cl)
		served.WaitState(t, inst.Browser, fsm.BrowserIdle)
		cl.Conn.Close()
		waitClients(t, inst, 0)
		if g := generation(t, inst); g != 1 {
			t.Fatalf("a client leaving while degraded relaunched the browser (generation %d)", g)
		}
	})
	t.Run("recovering", func(t *testing.T) {
		inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=1", "--fake-start-delay=1s"), proxy.Spec{})
		cl := inst.DialCDP(t)
		crashNow(t, cl)
		served.WaitState(t, inst.Browser, fsm.BrowserIdle)
		cl.Send(2, "Browser.getVersion", "", "")
		served.WaitState(t, inst.Browser, fsm.BrowserLaunching)
		cl.Conn.Close()
		waitClients(t, inst, 0)
	})
	t.Run("starting", func(t *testing.T) {
		inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-start-delay=1s"), proxy.Spec{})
		d := websocket.Dialer{HandshakeTimeout: 200 * time.Millisecond}
		if _, _, err := d.Dial(inst.WS()+"/devtools/browser", nil); err == nil {
			t.Fatal("the handshake finished before the slow browser was ready")
		}
		served.WaitState(t, inst.Browser, fsm.BrowserRunning) // the launch goes on for the next client
		waitClients(t, inst, 0)
	})
}

func TestManyClientsOneRecovery(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	var clients []*actortest.CDPClient
	for i := 0; i < 4; i++ {
		cl := inst.DialCDP(t)
		cl.Call(1, "Browser.getVersion", "", "")
		clients = append(clients, cl)
	}
	ep, _ := inst.Browser.EnsureRunning(served.Context(t))
	actortest.KillPid(t, ep.Pid)
	served.WaitState(t, inst.Browser, fsm.BrowserIdle)
	for _, cl := range clients {
		cl.Send(2, "Browser.getVersion", "", "")
	}
	for _, cl := range clients {
		if m, _ := cl.Answer(2); m.Error != nil {
			t.Fatalf("after the kill: %s", m.Error)
		}
	}
	if g := generation(t, inst); g != 2 {
		t.Fatalf("generation %d: want one relaunch for all clients", g)
	}
}
