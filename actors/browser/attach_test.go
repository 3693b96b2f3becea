package browser_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// startOutsideBrowser runs a fake browser cdpvisor did not launch, on
// profile, with a debugging port, as a user would.
func startOutsideBrowser(t *testing.T, profile string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(actortest.FakeBrowser(t), "--remote-debugging-port=0", "--user-data-dir="+profile, "--headless=new")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(profile + "/DevToolsActivePort"); err == nil && len(data) > 0 {
			return cmd
		}
		if time.Now().After(end) {
			t.Fatal("the outside browser wrote no DevToolsActivePort")
		}
	}
}

func TestAttachesToABrowserAlreadyOnTheProfileAndNeverKillsIt(t *testing.T) {
	profile := t.TempDir()
	outside := startOutsideBrowser(t, profile)
	opts := served.FakeLaunch(t)
	opts.UserDataDir = profile
	inst := served.StartInstance(t, opts, proxy.Spec{})
	ctx := served.Context(t)
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ep.Ownership != "attached" || ep.Pid != outside.Process.Pid {
		t.Fatalf("endpoint %+v, want attached to pid %d", ep, outside.Process.Pid)
	}
	cl := inst.DialCDP(t)
	cl.Call(1, "Browser.getVersion", "", "")
	if err := inst.Browser.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if !actortest.Alive(outside.Process.Pid) {
		t.Fatal("stopping an attached browser killed it")
	}
	if _, err := os.Stat(profile); err != nil {
		t.Fatal("the attached browser's profile was removed")
	}
	// Attached again on demand; its death is noticed; then a launch.
	if ep, err = inst.Browser.EnsureRunning(ctx); err != nil || ep.Ownership != "attached" {
		t.Fatalf("re-attach: %+v %v", ep, err)
	}
	_ = outside.Process.Kill()
	_ = outside.Wait()
	served.WaitState(t, inst.Browser, fsm.BrowserIdle)
	ep, err = inst.Browser.EnsureRunning(ctx)
	if err != nil || ep.Ownership != "launched" || ep.Pid == outside.Process.Pid {
		t.Fatalf("after the outside browser died: %+v %v, want a launch", ep, err)
	}
}
