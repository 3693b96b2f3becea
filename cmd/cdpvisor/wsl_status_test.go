package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// status and the launch messages name a Windows browser by its Windows
// pid (it has no Linux pid), and say how its port is reached.
func TestWSLStatusShowsTheWindowsPid(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name, func(t *testing.T) {
			win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
			stateDir := t.TempDir()
			s := startServe(t, natEnv(win, mode.env), "--windows", "--state-dir", stateDir)
			var version struct{ WebSocketDebuggerURL string }
			getJSON(t, s.endpoint+"/json/version", &version)
			b := onlyWindowsBrowser(t, win)

			out, _, code := runCLI(t, nil, "status", "--json", "--state-dir", stateDir)
			if code != 0 || !strings.Contains(out, fmt.Sprintf(`"windows_pid": %d`, b.WinPid)) {
				t.Errorf("status --json (exit %d) lacks windows_pid %d:\n%s", code, b.WinPid, out)
			}
			table, _, _ := runCLI(t, nil, "status", "--state-dir", stateDir)
			if !strings.Contains(table, fmt.Sprintf("%d (Windows)", b.WinPid)) {
				t.Errorf("status lacks the Windows pid %d:\n%s", b.WinPid, table)
			}
			resp, err := http.Get(s.endpoint + "/health")
			if err != nil {
				t.Fatal(err)
			}
			health, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(health), fmt.Sprintf(`"windows_pid": %d`, b.WinPid)) {
				t.Errorf("/health lacks windows_pid %d:\n%s", b.WinPid, health)
			}
			reach := map[string]string{"mirrored": "reach=direct", "NAT": "reach=windows-helper"}[mode.name]
			if log := s.stderr.String(); !strings.Contains(log, fmt.Sprintf("windowsPid=%d", b.WinPid)) || !strings.Contains(log, reach) {
				t.Errorf("the launch log lacks windowsPid=%d or %s:\n%s", b.WinPid, reach, log)
			}
		})
	}
}
