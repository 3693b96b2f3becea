package leases

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The live view names a wrap's child by what follows "--" on the wrap's
// command line, and the program a runner (npx) runs.
func TestChildCommandIsWhatFollowsTheDashes(t *testing.T) {
	for want, args := range map[string][]string{
		"npx chrome-devtools-mcp@latest": {"-c", "read x", "wrap", "--isolate", "--", "/usr/bin/npx", "-y", "chrome-devtools-mcp@latest", "--browserUrl=x"},
		"my-agent":                       {"-c", "read x", "wrap", "--", "./bin/my-agent", "--port", "1"},
		"":                               {"-c", "read x", "wrap"},
	} {
		cmd := exec.Command("/bin/sh", args...) // the shell waits on its own read: no child of its own
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cmdline"); strings.Contains(string(b), "wrap") {
				break // exec'd
			}
		}
		got := childCommand(cmd.Process.Pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if got != want {
			t.Errorf("%q: %q, want %q", args, got, want)
		}
	}
}
