package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// leftovers lists what a coordinator with pid left: its temporary
// directories and its state files.
func leftovers(pid int, stateDir string) []string {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("cdpv-%d-*", pid)))
	// State files only: the record of ended coordinators' ports stays, for
	// the next coordinator to take the port over.
	states, _ := filepath.Glob(filepath.Join(stateDir, "coordinator-*.json"))
	pointer, _ := filepath.Glob(filepath.Join(stateDir, "state.json"))
	return append(append(dirs, states...), pointer...)
}

// waitClean waits up to 2 s for the browser to be gone and nothing left.
func waitClean(t *testing.T, browser, coordinator int, stateDir string) {
	t.Helper()
	end := time.Now().Add(2 * time.Second)
	for actortest.Alive(browser) || len(leftovers(coordinator, stateDir)) > 0 {
		if time.Now().After(end) {
			t.Fatalf("2 s after the kill: browser alive %v, left %v", actortest.Alive(browser), leftovers(coordinator, stateDir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func wsOf(endpoint string) string {
	u, _ := url.Parse(endpoint)
	return "ws://" + u.Host + "/devtools/browser"
}

// kill -9 of the coordinator, with a client connected: its watchdog ends
// the browser and removes the profile and the state file within 2 s.
func TestKillNineOfTheCoordinatorLeavesNothing(t *testing.T) {
	chromium := actortest.Chromium(t)
	t.Run("serve", func(t *testing.T) {
		stateDir := t.TempDir()
		s := startServe(t, nil, "--browser", chromium, "--state-dir", stateDir)
		client, _, err := websocket.DefaultDialer.Dial(wsOf(s.endpoint), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		browser := onlyBrowser(t, s.cmd.Process.Pid, chromium)
		_ = s.cmd.Process.Kill()
		waitClean(t, browser, s.cmd.Process.Pid, stateDir)
	})
	t.Run("mcp", func(t *testing.T) {
		stateDir := t.TempDir()
		p := startMCPWith(t, stateDir, chromium)
		p.request(t, 2, "tools/call", `{"name":"coordinator_launch_browser","arguments":{}}`)
		browser := onlyBrowser(t, p.cmd.Process.Pid, chromium)
		_ = p.cmd.Process.Kill()
		waitClean(t, browser, p.cmd.Process.Pid, stateDir)
	})
}

// onlyBrowser returns the one browser process a coordinator launched.
func onlyBrowser(t *testing.T, coordinator int, exe string) int {
	t.Helper()
	browsers := browserChildren(coordinator)
	if len(browsers) != 1 {
		t.Fatalf("children of %d: %v, want one browser", coordinator, browsers)
	}
	return browsers[0]
}

// guardOf waits for the coordinator's guard (`cdpvisor watchdog`): it
// starts with the coordinator, before any browser, and guards them all.
func guardOf(t *testing.T, coordinator int) int {
	t.Helper()
	want := fmt.Sprintf(" watchdog --coordinator-pid %d ", coordinator)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		for _, pid := range actortest.Children(coordinator) {
			if strings.Contains(actortest.Cmdline(pid), want) {
				return pid
			}
		}
		if time.Now().After(end) {
			t.Fatalf("no watchdog among %v within 5 s", actortest.Children(coordinator))
		}
	}
}

// runWatchdogFor starts `cdpvisor watchdog`, tells it of a launch whose
// browser is pid, and then drops its pipe as a dying coordinator would; it
// returns once the watchdog ended.
func runWatchdogFor(t *testing.T, pid int, exe, profile string, headless bool) {
	t.Helper()
	r, w, _ := os.Pipe()
	cmd := exec.Command(binary, "watchdog", "--coordinator-pid", fmt.Sprint(actortest.DeadPID(t)), "--temp-root", t.TempDir())
	cmd.ExtraFiles = []*os.File{r}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	id, _ := json.Marshal(proc.BrowserIdentity{Pid: pid, Exe: exe, UserDataDir: profile, Headless: headless})
	fmt.Fprintf(w, "{\"op\":\"launch\",\"id\":1,\"profile\":%q}\n{\"op\":\"spawned\",\"id\":1,\"browser\":%s}\n", profile, id)
	w.Close() // EOF without bye: "the coordinator died"
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("watchdog: %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("watchdog did not finish")
	}
}

// A pid reused by an unrelated process is not killed; the browser it was
// launched for is (the control that shows the check can fail).
func TestWatchdogChecksItIsStillTheBrowser(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	profile := t.TempDir()
	unrelated := exec.Command("sleep", "30")
	if err := unrelated.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unrelated.Process.Kill(); _ = unrelated.Wait() }()
	runWatchdogFor(t, unrelated.Process.Pid, fake, profile, true)
	if !actortest.Alive(unrelated.Process.Pid) {
		t.Fatal("the watchdog killed an unrelated process that had the browser's pid")
	}

	for _, c := range []struct {
		name     string
		args     []string
		headless bool
		killed   bool
	}{
		{"headless browser", []string{"--headless=new"}, true, true},
		{"headed, watchdog expects headless", nil, true, false},
		{"another profile", []string{"--headless=new"}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			own := t.TempDir()
			browserProfile := own
			if c.name == "another profile" {
				browserProfile = t.TempDir()
			}
			b := exec.Command(fake, append([]string{"--user-data-dir=" + browserProfile}, c.args...)...)
			b.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := b.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = b.Wait(); close(exited) }()
			defer func() { _ = b.Process.Kill(); <-exited }()
			time.Sleep(100 * time.Millisecond)
			runWatchdogFor(t, b.Process.Pid, fake, own, c.headless)
			select {
			case <-exited:
				if !c.killed {
					t.Fatal("killed a process that is not the guarded browser")
				}
			case <-time.After(time.Second):
				if c.killed {
					t.Fatal("the guarded browser survived its watchdog")
				}
			}
		})
	}
}

// A browser the coordinator attached to (a user's, on their profile)
// survives the coordinator's death.
func TestAttachedBrowserSurvivesTheCoordinator(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	profile := t.TempDir()
	outside := exec.Command(fake, "--remote-debugging-port=0", "--user-data-dir="+profile, "--headless=new")
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = outside.Process.Kill(); _ = outside.Wait() }()
	waitFile(t, filepath.Join(profile, "DevToolsActivePort"))
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", fake, "--user-data-dir", profile, "--state-dir", stateDir, "--log-format", "json")
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	if !s.logged(`"ownership":"attached"`) {
		t.Fatalf("not attached:\n%s", s.stderr.String())
	}
	_ = s.cmd.Process.Kill()
	time.Sleep(2 * time.Second)
	if !actortest.Alive(outside.Process.Pid) {
		t.Fatal("the attached browser died with the coordinator")
	}
	if _, err := os.Stat(profile); err != nil {
		t.Fatal("the attached browser's profile was removed")
	}
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s never appeared", path)
		}
	}
}

// When the guard was killed too, the next coordinator's start-up reaper
// cleans what the dead one left. The browser, on its pipe, ends by itself
// with its coordinator; its temporary directory and the state file are the
// reaper's.
func TestReaperCleansWhenTheWatchdogWasKilledToo(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", fake, "--state-dir", stateDir)
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	browser := onlyBrowser(t, s.cmd.Process.Pid, fake)
	// Both die at once: the guard, stopped first, cannot see its coordinator go.
	wd := guardOf(t, s.cmd.Process.Pid)
	_ = syscall.Kill(wd, syscall.SIGSTOP)
	_ = s.cmd.Process.Kill()
	_ = <-s.done
	s.done <- nil
	_ = syscall.Kill(wd, syscall.SIGKILL)
	waitGone(t, wd)
	waitGone(t, browser) // its pipe closed with the coordinator
	if len(leftovers(s.cmd.Process.Pid, stateDir)) == 0 {
		t.Fatal("nothing was left to reap: the test proves nothing")
	}
	startServe(t, nil, "--browser", fake, "--state-dir", stateDir)
	waitClean(t, browser, s.cmd.Process.Pid, filepath.Join(stateDir, "none"))
	states, _ := filepath.Glob(filepath.Join(stateDir, fmt.Sprintf("coordinator-%d.json", s.cmd.Process.Pid)))
	if len(states) != 0 {
		t.Fatalf("the dead coordinator's state file is still there: %v", states)
	}
}

// cdpvisor mcp shuts down when its host dies without closing its stdin.
func TestMCPStopsWhenItsParentDies(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	stateDir := t.TempDir()
	// A background job's stdin is /dev/null unless saved first.
	host := exec.Command("sh", "-c", fmt.Sprintf("exec 3<&0; %s mcp --browser %s --state-dir %s <&3 3<&- & wait", binary, fake, stateDir))
	stdin, _ := host.StdinPipe() // held open by the test: no EOF for the server
	defer stdin.Close()
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	var server int
	for end := time.Now().Add(5 * time.Second); server == 0; time.Sleep(20 * time.Millisecond) {
		if kids := actortest.Children(host.Process.Pid); len(kids) == 1 {
			server = kids[0]
		}
		if time.Now().After(end) {
			t.Fatal("the server did not start")
		}
	}
	waitFile(t, filepath.Join(stateDir, "state.json"))
	_ = host.Process.Kill()
	_ = host.Wait()
	for end := time.Now().Add(5 * time.Second); actortest.Alive(server); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			_ = syscall.Kill(server, syscall.SIGKILL)
			t.Fatal("cdpvisor mcp outlived its host")
		}
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Fatalf("state files left: %v", left)
	}
}

// A guard killed on its own is started again and told every launch it
// held: the coordinator's death later still ends its browser.
func TestAKilledGuardIsStartedAgain(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", fake, "--state-dir", stateDir)
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	browser := onlyBrowser(t, s.cmd.Process.Pid, fake)
	first := guardOf(t, s.cmd.Process.Pid)
	_ = syscall.Kill(first, syscall.SIGKILL)
	waitGone(t, first)
	if again := guardOf(t, s.cmd.Process.Pid); again == first {
		t.Fatal("no new guard")
	}
	_ = s.cmd.Process.Kill()
	_ = <-s.done
	s.done <- nil
	waitClean(t, browser, s.cmd.Process.Pid, filepath.Join(stateDir, "none"))
}
