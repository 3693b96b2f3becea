package actortest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain fails the run if a test leaves a process or profile behind.
func TestMain(m *testing.M) { os.Exit(LeakCheckMain(m)) }

// --- running the fake -------------------------------------------------------

// fakeProcess is one fake browser started in its own process group; the
// test's cleanup kills the whole group and waits until nothing of it is left.
type fakeProcess struct {
	t      testing.TB
	cmd    *exec.Cmd
	exited chan struct{} // closed once cmd.Wait has returned
	eof    chan struct{} // closed once stderr has been read to its end

	mu     sync.Mutex
	chunks []string // stderr as read, one entry per read
	stderr strings.Builder
}

func startFake(t testing.TB, extraFiles []*os.File, args ...string) *fakeProcess {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(FakeBrowser(t), args...)
	cmd.Stderr = w
	cmd.ExtraFiles = extraFiles
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p := &fakeProcess{t: t, cmd: cmd, exited: make(chan struct{}), eof: make(chan struct{})}
	go p.readStderr(r)
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.killGroup()
		r.Close()
	})
	return p
}

func (p *fakeProcess) readStderr(r io.Reader) {
	defer close(p.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.chunks = append(p.chunks, string(buf[:n]))
			p.stderr.Write(buf[:n])
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// lines returns the complete stderr lines so far.
func (p *fakeProcess) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	text := p.stderr.String()
	return strings.Split(text[:strings.LastIndex(text, "\n")+1], "\n")
}

// allStderr waits for the end of stderr, which comes once every process
// holding it has exited, and returns its text.
func (p *fakeProcess) allStderr() string {
	p.t.Helper()
	select {
	case <-p.eof:
	case <-time.After(5 * time.Second):
		p.t.Fatal("stderr still open 5s on")
	}
	return strings.Join(p.lines(), "\n")
}

// waitLine waits for a whole stderr line matching re and returns its submatches.
func (p *fakeProcess) waitLine(re *regexp.Regexp, timeout time.Duration) []string {
	p.t.Helper()
	var found []string
	if !eventually(timeout, func() bool {
		for _, line := range p.lines() {
			if found = re.FindStringSubmatch(line); found != nil {
				return true
			}
		}
		return false
	}) {
		p.t.Fatalf("no stderr line matching %s within %v; stderr:\n%s", re, timeout, strings.Join(p.lines(), "\n"))
	}
	return found
}

var devToolsLine = regexp.MustCompile(`^DevTools listening on (ws://(\S+)/devtools/browser/(\S+))$`)

// ready waits for the DevTools line; it returns the ws URL, host:port and uuid.
func (p *fakeProcess) ready() (wsURL, hostPort, uuid string) {
	p.t.Helper()
	m := p.waitLine(devToolsLine, 10*time.Second)
	return m[1], m[2], m[3]
}

// exitCode waits for the process to end; -1 means killed by a signal.
func (p *fakeProcess) exitCode(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		p.t.Fatalf("fake browser still running after %v", timeout)
		return 0
	}
}

func (p *fakeProcess) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

func (p *fakeProcess) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

func (p *fakeProcess) killGroup() {
	pgid := p.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		p.t.Errorf("fake browser %d did not exit after SIGKILL", pgid)
	}
	if !eventually(5*time.Second, func() bool { return len(liveInGroup(pgid)) == 0 }) {
		p.t.Errorf("process group %d still has live processes %v", pgid, liveInGroup(pgid))
	}
}

// liveInGroup lists the processes of a group that are not zombies (an
// orphan's zombie lingers until some ancestor reaps it).
func liveInGroup(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if ok && group == pgid && state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat reads a process's state and process group from /proc/<pid>/stat.
func procStat(pid int) (state string, pgid int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// The command name may hold spaces and parentheses: fields start after the last ')'.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 3 {
		return "", 0, false
	}
	pgid, err = strconv.Atoi(fields[2])
	return fields[0], pgid, err == nil
}

func eventually(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startPortFake starts the fake on a free port with a fresh profile.
func startPortFake(t testing.TB, args ...string) (p *fakeProcess, wsURL, hostPort string) {
	t.Helper()
	base := []string{"--no-sandbox", "--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + t.TempDir()}
	p = startFake(t, nil, append(base, args...)...)
	wsURL, hostPort, _ = p.ready()
	return p, wsURL, hostPort
}

// startPipeFake starts the fake with fds 3 and 4 as pipes, as Puppeteer does.
func startPipeFake(t testing.TB, args ...string) (*fakeProcess, *CDPClient, *os.File) {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := startFake(t, []*os.File{cmdR, outW}, append([]string{"--remote-debugging-pipe"}, args...)...)
	cmdR.Close()
	outW.Close()
	t.Cleanup(func() { cmdW.Close(); outR.Close() })
	out := bufio.NewReader(outR)
	c := NewCDPClient(t,
		func(msg []byte) error { _, err := cmdW.Write(append(msg, 0)); return err },
		func() ([]byte, error) {
			msg, err := out.ReadBytes(0)
			if err != nil {
				return nil, err
			}
			return msg[:len(msg)-1], nil
		})
	return p, c, cmdW
}
