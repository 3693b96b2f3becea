package relay_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// A request the browser dies on is not lost: the next browser answers it.
func TestRequestInFlightAtTheCrashIsAnsweredByTheNextBrowser(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=3"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Browser.getVersion", "", "")
	cl.Call(2, "Browser.getVersion", "", "")
	if m := cl.Call(3, "Browser.getVersion", "", ""); m.Error != nil { // the browser dies on this one
		t.Fatalf("%+v", m)
	}
	if g := generation(t, inst); g != 2 {
		t.Fatalf("generation %d, want 2: the request was answered by the next browser", g)
	}
}

// A Browser.close the browser dies on (a user closing it at that moment)
// is answered, not sent to a new browser.
func TestBrowserCloseInFlightIsAnsweredNotReplayed(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=2"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Browser.getVersion", "", "")
	m := cl.Call(-9999, "Browser.close", "", "")
	if string(m.Result) != "{}" {
		t.Fatalf("%+v", m)
	}
	time.Sleep(300 * time.Millisecond)
	if st, _ := inst.Browser.Status(served.Context(t)); st.Generation != 1 {
		t.Fatalf("a Browser.close relaunched a browser: %+v", st)
	}
}

// A huge answer (past the streaming threshold) arrives whole and intact,
// and the connection goes on as before.
func TestHugeAnswersAreStreamedIntact(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Send(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`, "")
	_, events := cl.Answer(1)
	var session string
	for _, ev := range events {
		if ev.Method == "Target.attachedToTarget" {
			var p struct{ SessionID string }
			_ = json.Unmarshal(ev.Params, &p)
			session = p.SessionID
		}
	}
	if session == "" {
		t.Fatal("no session")
	}
	for _, size := range []int{relay.StreamAfter - 100, relay.StreamAfter + 1, 3_000_000} {
		m := cl.Call(int64(size), "Runtime.evaluate", fmt.Sprintf(`{"expression":"fake:bytes:%d"}`, size), session)
		var r struct{ Result struct{ Value string } }
		if err := json.Unmarshal(m.Result, &r); err != nil || len(r.Result.Value) != size || strings.Trim(r.Result.Value, "x") != "" {
			t.Fatalf("size %d: got %d bytes, %v", size, len(r.Result.Value), err)
		}
		if m.SessionID != session {
			t.Fatalf("size %d: sessionId %q lost", size, m.SessionID)
		}
	}
	cl.Call(2, "Browser.getVersion", "", "")
}

// When the browser goes, the client is told its sessions and targets are
// gone, as a browser closing them would have: no stale page lingers.
func TestLostBrowserDetachesTheClientsSessions(t *testing.T) {
	// The next browser takes the two replays (the client's auto-attach is the
	// bootstrap) and a request: 3.
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=5"), proxy.Spec{})
	cl := inst.DialCDP(t)
	_, discovered := cl.AnswerOf(1, "Target.setDiscoverTargets", `{"discover":true}`)
	_, attached := cl.AnswerOf(2, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`)
	sessions, targets := map[string]bool{}, map[string]bool{}
	for _, ev := range append(discovered, attached...) {
		var p struct {
			SessionID  string
			TargetInfo struct{ TargetID string }
		}
		_ = json.Unmarshal(ev.Params, &p)
		switch ev.Method {
		case "Target.attachedToTarget":
			sessions[p.SessionID] = true
		case "Target.targetCreated":
			targets[p.TargetInfo.TargetID] = true
		}
	}
	if len(sessions) == 0 || len(targets) == 0 {
		t.Fatalf("no sessions %v or targets %v to lose", sessions, targets)
	}
	cl.Call(10, "Browser.getVersion", "", "")
	cl.Call(11, "Browser.getVersion", "", "")
	crashNow(t, cl)
	for len(sessions)+len(targets) > 0 {
		ev := cl.Next()
		var p struct{ SessionID, TargetID string }
		_ = json.Unmarshal(ev.Params, &p)
		switch ev.Method {
		case "Target.detachedFromTarget":
			delete(sessions, p.SessionID)
		case "Target.targetDestroyed":
			delete(targets, p.TargetID)
		default:
			t.Fatalf("unexpected %+v while sessions %v and targets %v are left", ev, sessions, targets)
		}
	}
	// And the next request recovers as ever.
	cl.Call(3, "Browser.getVersion", "", "")
}

// A client with its own auto-attach gets, after a recovery, what a fresh
// connection gets: its subscriptions in its order, with its own parameters
// (a filter, for Puppeteer's tab targets), and not the relay's filterless
// auto-attach first. So each target is discovered before it is attached.
func TestRecoveryBootstrapsWithTheClientsOwnAutoAttach(t *testing.T) {
	// Crash on the 5th message; the next browser takes at most 4 (the
	// bootstrap, two replays and a request), whichever bootstrap it gets.
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=5"), proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setDiscoverTargets", `{"discover":true}`, "")
	cl.Call(2, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`, "")
	cl.Call(3, "Browser.getVersion", "", "")
	cl.Call(4, "Browser.getVersion", "", "")
	crashNow(t, cl)
	m, events := cl.AnswerOf(5, "Browser.getVersion", "")
	if m.Error != nil {
		t.Fatalf("first request after the crash: %s", m.Error)
	}
	discovered := map[string]bool{}
	attached := 0
	for _, ev := range events {
		var p struct{ TargetInfo struct{ TargetID string } }
		_ = json.Unmarshal(ev.Params, &p)
		switch ev.Method {
		case "Target.targetCreated":
			discovered[p.TargetInfo.TargetID] = true
		case "Target.attachedToTarget":
			attached++
			if !discovered[p.TargetInfo.TargetID] {
				t.Fatalf("attachedToTarget for %s before its targetCreated: %+v", p.TargetInfo.TargetID, events)
			}
		}
	}
	if attached == 0 {
		t.Fatalf("no attachedToTarget from the new browser: %+v", events)
	}
}

// A relaunch that fails once (a browser that could not start on a loaded
// machine) does not give the client up: the retry waits out the launch
// backoff, and the browser launched then answers the request.
func TestRecoveryWaitsOutTheLaunchBackoff(t *testing.T) {
	dir := t.TempDir()
	count, script := filepath.Join(dir, "launches"), filepath.Join(dir, "browser")
	body := fmt.Sprintf("#!/bin/sh\nn=$(( $(cat %[1]s 2>/dev/null || echo 0) + 1 ))\necho $n > %[1]s\n"+
		"if [ $n -eq 2 ]; then echo 'could not start' >&2; exit 1; fi\nexec %[2]s \"$@\"\n", count, actortest.FakeBrowser(t))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := served.FakeLaunch(t, "--fake-crash-after=3")
	opts.Browser.Path = script
	inst := served.StartInstance(t, opts, proxy.Spec{})
	cl := inst.DialCDP(t)
	cl.Call(1, "Browser.getVersion", "", "")
	cl.Call(2, "Browser.getVersion", "", "")
	if m := cl.Call(3, "Browser.getVersion", "", ""); m.Error != nil { // the browser dies on this one
		t.Fatalf("%+v", m)
	}
	if n, _ := os.ReadFile(count); strings.TrimSpace(string(n)) != "3" {
		t.Fatalf("%s launches, want 3: the first, the one that failed, the one after the backoff", strings.TrimSpace(string(n)))
	}
}
