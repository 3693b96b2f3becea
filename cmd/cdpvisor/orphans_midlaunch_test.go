package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Issue 25, "No orphan, even mid-launch": a coordinator (serve, mcp, a
// bridge) killed with SIGKILL at any instant of a browser's launch leaves
// no process and no temporary directory behind, as one killed once its
// browser is ready does (orphans_test.go).
//
// Each try runs its coordinator with a $TMPDIR of its own (where its
// launches make their cdpv-* directories) and a marker in its environment
// that every process it starts inherits. The coordinator is SIGKILLed at
// an instant spread over a launch timed beforehand; whatever guards the
// launch then has killGrace to end the browser's processes and remove the
// directory. A try that left something says when it was killed and what
// ran then; what it left is then killed by pid and removed, so that the
// package's leak check keeps its meaning.

// killTrySeq names the tries' directories.
var killTrySeq atomic.Int64

// killGrace is how long after the kill a try may take to be clean.
const killGrace = 3 * time.Second

// killTryVar is the environment variable that marks a try's processes.
const killTryVar = "CDPV_KILL_TRY"

// slowFakeLaunch makes the fake browser's launch long enough to aim into:
// ~300 ms before its DevTools line, 400 ms more before /json/version
// answers, and a helper child in its process group, as Chromium's zygote.
var slowFakeLaunch = []string{"--fake-start-delay=300ms", "--fake-ready-delay=400ms", "--fake-spawn-child"}

func asBrowserArgs(switches []string) []string {
	var out []string
	for _, s := range switches {
		out = append(out, "--browser-arg="+s)
	}
	return out
}

// killTry is one coordinator killed mid-launch.
type killTry struct {
	t        *testing.T
	aim      time.Duration // the kill instant aimed at, after the trigger
	dir      string        // its $TMPDIR
	marker   string
	env      []string
	answered atomic.Bool // the trigger (a request, a tool call) was answered

	killedAt time.Time
	at       time.Duration // when it was killed, after the trigger
	phase    string        // what ran then
	ended    string        // how it ended, for the failure
	left     []string      // what was still there killGrace after the kill
}

func newKillTry(t *testing.T, aim time.Duration) *killTry {
	t.Helper()
	// Short, under the package's $TMPDIR: Chromium's socket paths go under
	// it, and a launch whose $TMPDIR would be too long for them goes to
	// /tmp instead (launch.TempRoot), where the try would not look.
	dir := ""
	for dir == "" {
		d := filepath.Join(os.TempDir(), "k"+strconv.FormatInt(killTrySeq.Add(1), 36))
		switch err := os.Mkdir(d, 0o700); {
		case err == nil:
			dir = d
		case !errors.Is(err, os.ErrExist):
			t.Fatal(err)
		}
	}
	k := &killTry{t: t, aim: aim, dir: dir, marker: fmt.Sprintf("%d-%s", os.Getpid(), filepath.Base(dir))}
	k.env = []string{"TMPDIR=" + dir, "XDG_DOWNLOAD_DIR=" + filepath.Join(dir, "downloads"), killTryVar + "=" + k.marker}
	t.Cleanup(k.clean)
	return k
}

// processes lists the live processes of the try: those with its marker in
// their environment, or its directory on their command line.
func (k *killTry) processes() []int {
	want := []byte(killTryVar + "=" + k.marker + "\x00")
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !actortest.Alive(pid) {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(append(env, 0), want) || strings.Contains(actortest.Cmdline(pid), k.dir+string(filepath.Separator)) {
			out = append(out, pid)
		}
	}
	return out
}

func (k *killTry) tempDirs() []string {
	dirs, _ := filepath.Glob(filepath.Join(k.dir, "cdpv-*"))
	return dirs
}

// census counts the coordinator's descendants: browser processes, and
// cdpvisor's own (watchdogs, guards). A child that still runs cdpvisor
// with the coordinator's command line is a browser forked but not yet
// exec'd. It reads the kernel's lists of children, not the whole process
// table, to be quick enough to run at the kill.
func census(coordinator int) (browsers, helpers int) {
	self := actortest.Cmdline(coordinator)
	var walk func(pid int)
	walk = func(pid int) {
		for _, c := range childrenOf(pid) {
			if info, err := proc.ProcessInfo(c); err == nil && info.Exe == binary && actortest.Cmdline(c) != self {
				helpers++
			} else {
				browsers++
			}
			walk(c)
		}
	}
	walk(coordinator)
	return browsers, helpers
}

// childrenOf lists the children of pid, from /proc/PID/task/*/children
// where the kernel has it.
func childrenOf(pid int) []int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if len(files) == 0 {
		return actortest.Children(pid)
	}
	var out []int
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, field := range strings.Fields(string(data)) {
			if child, err := strconv.Atoi(field); err == nil && actortest.Alive(child) {
				out = append(out, child)
			}
		}
	}
	return out
}

// kill waits for the aimed instant after trigger, notes what runs, and has
// kill end the coordinator (SIGKILL, and reaping it).
func (k *killTry) kill(trigger time.Time, coordinator int, kill func()) {
	time.Sleep(time.Until(trigger.Add(k.aim)))
	browsers, helpers := census(coordinator)
	dirs := len(k.tempDirs())
	answered := k.answered.Load()
	k.at = time.Since(trigger)
	k.killedAt = time.Now()
	kill()
	stage := "before the spawn"
	switch {
	case answered:
		stage = "after ready"
	case browsers > 0:
		stage = "between spawn and ready"
	}
	k.phase = fmt.Sprintf("%s: %d browser process(es), %d watchdog(s), %d temporary dir(s)", stage, browsers, helpers, dirs)
	k.ended = fmt.Sprintf("SIGKILLed %s after the trigger (aimed at %s), %s", k.at.Round(time.Millisecond), k.aim, k.phase)
}

// leftovers lists the try's live processes and files.
func (k *killTry) leftovers() []string {
	var out []string
	for _, pid := range k.processes() {
		out = append(out, fmt.Sprintf("process %d: %s", pid, clip(actortest.Cmdline(pid), 140)))
	}
	return append(out, actortest.LeftoverFiles(k.dir)...)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// assertNothingLeft waits until the try left nothing, for at most
// killGrace after the kill, and fails the test with what remains.
func (k *killTry) assertNothingLeft() {
	k.t.Helper()
	for {
		left := k.leftovers()
		if len(left) == 0 {
			return
		}
		if time.Since(k.killedAt) > killGrace {
			k.left = left
			k.t.Errorf("%s; %s later still there:\n  %s", k.ended, killGrace, strings.Join(left, "\n  "))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// expectBrowser checks that the try's processes and directory are seen
// while its browser runs, so that "nothing left" means something.
func (k *killTry) expectBrowser(t *testing.T, coordinator, wantBrowsers int) {
	t.Helper()
	browsers := 0
	for _, pid := range k.processes() {
		if info, err := proc.ProcessInfo(pid); err == nil && pid != coordinator && info.Exe != binary {
			browsers++
		}
	}
	if browsers < wantBrowsers || len(k.tempDirs()) != 1 {
		t.Fatalf("with the browser up, the try shows %d browser process(es) (want %d or more) and temporary dirs %v (want one): the checks would be blind",
			browsers, wantBrowsers, k.tempDirs())
	}
}

// clean kills by pid what the try left and removes its directory.
func (k *killTry) clean() {
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pids := k.processes()
		if len(pids) == 0 {
			break
		}
		if time.Now().After(end) {
			k.t.Errorf("leftovers of the try survive SIGKILL: %v", pids)
			break
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	_ = os.RemoveAll(k.dir)
}

func (k *killTry) summary(failed bool) string {
	verdict := "clean"
	switch {
	case len(k.left) > 0:
		verdict = fmt.Sprintf("LEFT %d thing(s)", len(k.left))
	case failed:
		verdict = "FAILED otherwise (see its log)"
	}
	return fmt.Sprintf("aimed %7s, killed %7s, %s → %s", k.aim, k.at.Round(time.Millisecond), k.phase, verdict)
}

// killInstants spreads n kill instants over a launch that took window: the
// first two at once and 5 ms after the trigger (before the spawn), the rest
// evenly up to 1.3 × window (the browser's start, its readiness, and just
// after it).
func killInstants(n int, window time.Duration) []time.Duration {
	aims := []time.Duration{0, 5 * time.Millisecond}
	first, last := 10*time.Millisecond, window*13/10
	for i := 0; len(aims) < n; i++ {
		aim := first + (last-first)*time.Duration(i)/time.Duration(max(n-3, 1))
		aims = append(aims, aim.Round(time.Millisecond))
	}
	return aims[:n]
}

// runKillTries runs n tries of try, parallel at a time, each killed at
// its instant of a launch that took window.
func runKillTries(t *testing.T, n, parallel int, window time.Duration, try func(t *testing.T, k *killTry)) {
	aims := killInstants(n, window)
	t.Logf("launch window %s: %d tries killed at %v after the trigger", window.Round(time.Millisecond), n, aims)
	runTries(t, n, parallel, func(i int) string { return fmt.Sprintf("try%02d_at_%s", i, aims[i]) },
		func(t *testing.T, i int, k *killTry) {
			k.aim = aims[i]
			try(t, k)
		})
}

// runTries runs n tries, parallel at a time (subtests run from goroutines
// of this test: t.Parallel would be bound to -parallel, GOMAXPROCS by
// default), and logs, by name, what each was killed during and whether it
// was clean.
func runTries(t *testing.T, n, parallel int, name func(i int) string, try func(t *testing.T, i int, k *killTry)) {
	summaries := make([]string, n)
	failed := make([]bool, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for i := range next {
				t.Run(name(i), func(t *testing.T) {
					k := newKillTry(t, 0)
					defer func() { summaries[i], failed[i] = name(i)+": "+k.summary(t.Failed()), t.Failed() }()
					try(t, i, k)
				})
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	bad := 0
	for _, f := range failed {
		if f {
			bad++
		}
	}
	t.Logf("%d of %d tries left something or failed:\n  %s", bad, n, strings.Join(summaries, "\n  "))
}

// calibrate runs measure once, unkilled, and returns the launch window it
// timed. Tests calibrate before t.Parallel, so that the other tests' tries
// do not slow the launch they time.
func calibrate(t *testing.T, measure func(t *testing.T, k *killTry) time.Duration) time.Duration {
	t.Helper()
	var window time.Duration
	ok := t.Run("calibrate", func(t *testing.T) {
		k := newKillTry(t, 0)
		k.ended = "stopped the ordinary way, after one launch"
		window = measure(t, k)
	})
	if !ok || window <= 0 {
		t.Fatal("no launch window: the calibration failed")
	}
	return window
}

// --- serve ---

// startServeTry starts `cdpvisor serve` in the try's environment.
func startServeTry(t *testing.T, k *killTry, browser string, switches []string) *served {
	t.Helper()
	args := append([]string{"--browser", browser, "--state-dir", filepath.Join(k.dir, "state")}, asBrowserArgs(switches)...)
	return startServe(t, k.env, args...)
}

// triggerGet sends GET /json/version, the first request, in the background;
// the channel closes once it is answered or failed.
func triggerGet(k *killTry, endpoint string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/json/version", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			k.answered.Store(resp.StatusCode == http.StatusOK)
		}
	}()
	return done
}

func killServe(s *served) func() {
	return func() {
		_ = s.cmd.Process.Kill()
		err := <-s.done
		s.done <- err // for startServe's cleanup
	}
}

// crashBrowser has the coordinator launch its browser, SIGKILLs the browser
// and waits until the coordinator has cleaned up after it: the next request
// relaunches.
func crashBrowser(t *testing.T, k *killTry, s *served) {
	t.Helper()
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	out, _, code := runCLI(t, nil, "status", "--json", "--state-dir", filepath.Join(k.dir, "state"))
	var list []state.CoordinatorStatus
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("status --json: %d %q", code, out)
	}
	pid := 0
	for _, c := range list {
		if c.Live && c.PID == s.cmd.Process.Pid && len(c.Instances) == 1 && c.Instances[0].Browser != nil {
			pid = c.Instances[0].Browser.Pid
		}
	}
	if pid <= 0 {
		t.Fatalf("no browser pid in the status: %s", out)
	}
	actortest.KillPid(t, pid)
	// Its helper, reparented, is still the try's: it goes with the
	// browser's process group. The coordinator's guard stays, as it does.
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		others := slices.DeleteFunc(k.processes(), func(pid int) bool {
			return pid == s.cmd.Process.Pid || strings.Contains(actortest.Cmdline(pid), " watchdog ")
		})
		if len(others) == 0 && len(k.tempDirs()) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("5 s after its browser was killed, the coordinator still has processes %v and temporary dirs %v", others, k.tempDirs())
		}
	}
}

// serveWindow times one launch (a relaunch after a crash when relaunch)
// from the request that triggers it to its answer.
func serveWindow(browser string, switches []string, relaunch bool, wantBrowsers int) func(t *testing.T, k *killTry) time.Duration {
	return func(t *testing.T, k *killTry) time.Duration {
		s := startServeTry(t, k, browser, switches)
		if relaunch {
			crashBrowser(t, k, s)
		}
		start := time.Now()
		var version struct{ WebSocketDebuggerURL string }
		getJSON(t, s.endpoint+"/json/version", &version)
		window := time.Since(start)
		k.expectBrowser(t, s.cmd.Process.Pid, wantBrowsers)
		if err := s.stop(t); err != nil {
			t.Fatalf("serve: %v", err)
		}
		k.killedAt = time.Now()
		k.assertNothingLeft()
		return window
	}
}

func serveKillTry(browser string, switches []string, relaunch bool) func(t *testing.T, k *killTry) {
	return func(t *testing.T, k *killTry) {
		s := startServeTry(t, k, browser, switches)
		if relaunch {
			crashBrowser(t, k, s)
		}
		trigger := time.Now()
		answered := triggerGet(k, s.endpoint)
		k.kill(trigger, s.cmd.Process.Pid, killServe(s))
		k.assertNothingLeft()
		<-answered
	}
}

// `cdpvisor serve` SIGKILLed during its first launch (the first request's).
func TestMidLaunchKillOfServeLeavesNothing(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	window := calibrate(t, serveWindow(fake, slowFakeLaunch, false, 2))
	t.Parallel() // after the calibration, timed without the others' load
	runKillTries(t, 30, 3, window, serveKillTry(fake, slowFakeLaunch, false))
}

// `cdpvisor serve` SIGKILLed during the relaunch that follows its browser's
// crash (the next request's).
func TestMidLaunchKillOfServeRelaunchLeavesNothing(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	window := calibrate(t, serveWindow(fake, slowFakeLaunch, true, 2))
	t.Parallel() // after the calibration, timed without the others' load
	runKillTries(t, 30, 3, window, serveKillTry(fake, slowFakeLaunch, true))
}

// `cdpvisor serve` with real Chromium (zygotes, GPU, renderers), SIGKILLed
// during its first launch.
func TestMidLaunchKillOfServeWithChromiumLeavesNothing(t *testing.T) {
	chromium := actortest.Chromium(t)
	window := calibrate(t, serveWindow(chromium, nil, false, 3))
	t.Parallel() // after the calibration, timed without the others' load
	runKillTries(t, 10, 2, window, serveKillTry(chromium, nil, false))
}

// --- mcp ---

// startMCPTry starts `cdpvisor mcp` in the try's environment and
// initializes the session.
func startMCPTry(t *testing.T, k *killTry, browser string, switches []string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{stderr: &actortest.SyncBuffer{}, done: make(chan struct{})}
	args := append([]string{"mcp", "--browser", browser, "--state-dir", filepath.Join(k.dir, "state")}, asBrowserArgs(switches)...)
	p.cmd = exec.Command(binary, args...)
	p.cmd.Env = append(os.Environ(), k.env...)
	p.cmd.Stderr = p.stderr
	p.stdin, _ = p.cmd.StdinPipe()
	stdout, _ := p.cmd.StdoutPipe()
	p.lines = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("mcp stderr:\n%s", p.stderr.String())
		}
	})
	p.request(t, 1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	fmt.Fprintln(p.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// triggerLaunchTool calls coordinator_launch_browser; the channel closes
// once it is answered or the server is gone.
func triggerLaunchTool(k *killTry, p *mcpProcess) <-chan struct{} {
	fmt.Fprintln(p.stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"coordinator_launch_browser","arguments":{}}}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for p.lines.Scan() {
			var m struct {
				ID     int
				Result struct{ IsError bool }
			}
			if json.Unmarshal(p.lines.Bytes(), &m) == nil && m.ID == 2 {
				k.answered.Store(!m.Result.IsError)
				return
			}
		}
	}()
	return done
}

// `cdpvisor mcp` SIGKILLed during coordinator_launch_browser.
func TestMidLaunchKillOfMCPLeavesNothing(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	window := calibrate(t, func(t *testing.T, k *killTry) time.Duration {
		p := startMCPTry(t, k, fake, slowFakeLaunch)
		start := time.Now()
		<-triggerLaunchTool(k, p)
		window := time.Since(start)
		if !k.answered.Load() {
			t.Fatalf("coordinator_launch_browser failed; stderr:\n%s", p.stderr.String())
		}
		k.expectBrowser(t, p.cmd.Process.Pid, 2)
		p.stdin.Close() // stdin EOF: the server stops its browser and exits
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			t.Fatal("mcp did not exit within 20 s of its stdin's EOF")
		}
		k.killedAt = time.Now()
		k.assertNothingLeft()
		return window
	})
	t.Parallel() // after the calibration, timed without the others' load
	runKillTries(t, 12, 3, window, func(t *testing.T, k *killTry) {
		p := startMCPTry(t, k, fake, slowFakeLaunch)
		trigger := time.Now()
		answered := triggerLaunchTool(k, p)
		k.kill(trigger, p.cmd.Process.Pid, func() { _ = p.cmd.Process.Kill(); <-p.done })
		k.assertNothingLeft()
		<-answered
	})
}

// --- bridge ---

// pipeBridge is `cdpvisor bridge --remote-debugging-pipe` with the test
// holding the tool's ends of fds 3 and 4.
type pipeBridge struct {
	cmd    *exec.Cmd
	stderr *actortest.SyncBuffer
	toW    *os.File // the tool's end of fd 3
	fromR  *os.File // the tool's end of fd 4
	exited chan struct{}
}

// startPipeBridge starts the bridge in the try's environment; it launches
// its browser at once.
func startPipeBridge(t *testing.T, k *killTry, browser string, switches []string) *pipeBridge {
	t.Helper()
	toR, toW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &pipeBridge{stderr: &actortest.SyncBuffer{}, toW: toW, fromR: fromR, exited: make(chan struct{})}
	args := append([]string{"bridge", "--remote-debugging-pipe", "--headless=new", "--browser=" + browser}, switches...)
	b.cmd = exec.Command(binary, args...)
	b.cmd.Env = append(os.Environ(), k.env...)
	b.cmd.ExtraFiles = []*os.File{toR, fromW}
	b.cmd.Stderr = b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toR.Close()
	fromW.Close()
	go func() { _ = b.cmd.Wait(); close(b.exited) }()
	t.Cleanup(func() {
		toW.Close()
		fromR.Close()
		_ = b.cmd.Process.Kill()
		<-b.exited
		if t.Failed() {
			t.Logf("bridge stderr:\n%s", b.stderr.String())
		}
	})
	return b
}

// triggerVersion sends Browser.getVersion over the pipe; the channel
// closes once it is answered or the pipe is gone.
func triggerVersion(t *testing.T, k *killTry, b *pipeBridge) <-chan struct{} {
	pipe := transport.NewPipeConn(b.fromR, b.toW, nil)
	if err := pipe.Write([]byte(`{"id":1,"method":"Browser.getVersion"}`), false); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		m := transport.NewMessage()
		if pipe.Read(m) == nil && strings.Contains(string(m.B), `"product"`) {
			k.answered.Store(true)
		}
	}()
	return done
}

// `cdpvisor bridge` in pipe mode SIGKILLed while it launches its browser
// (it does at once: the trigger is its start).
func TestMidLaunchKillOfBridgeLeavesNothing(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	window := calibrate(t, func(t *testing.T, k *killTry) time.Duration {
		start := time.Now()
		b := startPipeBridge(t, k, fake, slowFakeLaunch)
		<-triggerVersion(t, k, b)
		window := time.Since(start)
		if !k.answered.Load() {
			t.Fatalf("no answer over the pipe; stderr:\n%s", b.stderr.String())
		}
		k.expectBrowser(t, b.cmd.Process.Pid, 2)
		b.toW.Close() // the tool is done: the bridge stops its browser and exits
		select {
		case <-b.exited:
		case <-time.After(20 * time.Second):
			t.Fatal("the bridge did not exit within 20 s of its pipe's close")
		}
		k.killedAt = time.Now()
		k.assertNothingLeft()
		return window
	})
	t.Parallel() // after the calibration, timed without the others' load
	runKillTries(t, 12, 3, window, func(t *testing.T, k *killTry) {
		trigger := time.Now()
		b := startPipeBridge(t, k, fake, slowFakeLaunch)
		answered := triggerVersion(t, k, b)
		k.kill(trigger, b.cmd.Process.Pid, func() { _ = b.cmd.Process.Kill(); <-b.exited })
		k.assertNothingLeft()
		b.fromR.Close() // the browser may hold fd 4 too: no EOF to wait for
		<-answered
	})
}
