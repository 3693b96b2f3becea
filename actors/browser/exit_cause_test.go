package browser_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// An exit nobody asked for is a crash, with its signal, whatever the
// clients do meanwhile: here several clients keep sending, so their
// recoveries reach the actor before (or while) it hears of the exit, and
// must not turn it into a planned stop.
func TestKillUnderBusyClientsIsAlwaysACrash(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	const clients = 6
	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer func() { close(stop); wg.Wait() }()
	var answers [clients]atomic.Int64
	for i := range clients {
		cl := inst.DialCDP(t)
		wg.Go(func() {
			for id := int64(1); ; id++ {
				select {
				case <-stop:
					return
				default:
				}
				cl.Send(id, "Browser.getVersion", "", "")
				if _, ok := cl.NextWithin(5 * time.Second); !ok {
					return
				}
				answers[i].Add(1)
			}
		})
	}
	// flowing waits until every client got answers from the browser of now.
	flowing := func() {
		var before [clients]int64
		for i := range answers {
			before[i] = answers[i].Load()
		}
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			all := true
			for i := range answers {
				all = all && answers[i].Load() > before[i]+2
			}
			if all {
				return
			}
			if time.Now().After(end) {
				t.Fatal("the clients did not get answers again after the relaunch")
			}
		}
	}
	for kill := range 8 {
		flowing()
		ep, err := inst.Browser.EnsureRunning(ctx)
		if err != nil {
			t.Fatal(err)
		}
		actortest.KillPid(t, ep.Pid)
		var st browser.Status
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			st, err = inst.Browser.Status(ctx)
			if err == nil && st.LastExit != nil && st.LastExit.Generation == ep.Generation && st.State == fsm.BrowserRunning {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("kill %d: no relaunch after the kill: %+v", kill, st)
			}
		}
		if ex := st.LastExit; ex.Planned || ex.Cause != browser.CauseCrash || ex.Signal != "SIGKILL" {
			t.Fatalf("kill %d of generation %d recorded as %+v, want an unplanned crash by SIGKILL", kill, ep.Generation, *ex)
		}
	}
}
