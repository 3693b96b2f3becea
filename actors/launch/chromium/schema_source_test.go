//go:build linux

package chromium

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/multiplex"
)

// The executable is read from the browser's process once it answered, and
// remembered: /json/protocol asked as the browser dies (a kill -9 while a
// chrome-remote-interface client connects) still looks beside the real
// executable, not beside the script that started it.
func TestSchemaSourceRemembersTheExecutable(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	real, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	// As a browser that answered has: exec'd all the way (Start returns
	// as the exec begins; /proc shows no command line for a moment).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if info, err := proc.ProcessInfo(cmd.Process.Pid); err == nil && info.Exe != "" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("sleep's process never showed its executable: %+v, %v", info, err)
		}
	}
	schema, resolve := executableSchema(launch.Facts{Pid: cmd.Process.Pid, Browser: launch.Browser{Path: "/nowhere/chromium"}})
	resolve()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	_, err = schema(context.Background(), multiplex.Version{Product: "Chrome/156.0.8078.108"})
	if err == nil || strings.Contains(err.Error(), "/nowhere") {
		t.Fatalf("the schema of a browser gone after it answered: %v; want it sought beside %s's executable", err, real)
	}
}
