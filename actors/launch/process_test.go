package launch_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

func startFake(t *testing.T, args ...string) *launch.Process {
	t.Helper()
	p, err := chromium.Start(context.Background(), launch.Options{
		Browser:   launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless:  true,
		ExtraArgs: args,
		StopGrace: time.Second,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop() })
	return p
}

func TestProcessFactsIdentityAndStop(t *testing.T) {
	p := startFake(t)
	f := p.Describe()
	// On its debugging pipe: no port, reached through its connection.
	if f.Pid <= 0 || f.Port != 0 || f.Reach == nil || f.WSURL == "" || !f.TempProfile || f.TempDir == "" || f.Attached {
		t.Fatalf("facts of a fresh launch: %+v", f)
	}
	id := p.Identity()
	if err := id.Verify(); err != nil || !id.Headless || id.UserDataDir != f.UserDataDir {
		t.Fatalf("identity %+v: %v", id, err)
	}
	if rss, err := proc.GroupRSS(p.Pid); err != nil || rss < 1<<20 {
		t.Fatalf("resident memory of the running browser's group: %d bytes, %v", rss, err)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Exited():
	default:
		t.Fatal("Stop returned before the process exited")
	}
	if _, err := os.Stat(f.TempDir); !os.IsNotExist(err) {
		t.Fatalf("the launch's temporary directory is still there: %v", err)
	}
	if err := id.Verify(); err == nil {
		t.Fatal("the identity of a stopped browser still verifies")
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("a second Stop: %v", err)
	}
}

func TestProcessExitStatusSaysHowItEnded(t *testing.T) {
	p := startFake(t)
	actortest.KillPid(t, p.Pid)
	select {
	case <-p.Exited():
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after SIGKILL")
	}
	if st := p.ExitStatus(); st.Signal != "SIGKILL" || st.Code != -1 || st.String() != "killed by SIGKILL" {
		t.Fatalf("exit status after SIGKILL: %+v (%s)", st, st)
	}
}
