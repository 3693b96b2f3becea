package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// quietFlags are the flags cdpvisor gives its browsers, so the bare
// browser is the same program doing the same work.
var quietFlags = []string{
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-default-apps",
	"--disable-component-extensions-with-background-pages",
	"--disable-sync",
	"--disable-translate",
	"--metrics-recording-only",
	"--mute-audio",
	"--disable-component-update",
	"--disable-breakpad",
}

// chromiumArgs is the bare browser's command line on profile.
func chromiumArgs(profile string) []string {
	args := []string{
		"--remote-debugging-port=0",
		"--remote-debugging-address=127.0.0.1",
		"--user-data-dir=" + profile,
	}
	args = append(args, quietFlags...)
	args = append(args, "--headless=new")
	if runtime.GOOS != "windows" && os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses root without it
	}
	return append(args, "about:blank")
}

// child is a process the bench started, in its own process group.
type child struct {
	name   string
	cmd    *exec.Cmd
	pid    int
	exited chan struct{}
	stderr *lineWriter
}

// Entries already in cmd.Env are added to the bench's environment.
func startChild(name string, cmd *exec.Cmd, stdout, stderr *lineWriter, root string) (*child, error) {
	cmd.SysProcAttr = groupAttr()
	cmd.Env = append(append(os.Environ(), cmd.Env...), "TMPDIR="+root, "TMP="+root, "TEMP="+root)
	if stdout != nil {
		cmd.Stdout = stdout
	}
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second // grandchildren may hold the pipes
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, pid: cmd.Process.Pid, exited: make(chan struct{}), stderr: stderr}
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// waitExit waits up to d for the process to have exited.
func (c *child) waitExit(d time.Duration) bool {
	select {
	case <-c.exited:
		return true
	case <-time.After(d):
		return false
	}
}

// killAll ends the whole process group with SIGKILL and waits for it.
func (c *child) killAll() {
	_ = killGroup(c.pid)
	c.waitExit(5 * time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for groupAlive(c.pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
}

// chromiumProc is a bare Chromium.
type chromiumProc struct {
	*child
	ws      string
	profile string
}

// startChromium launches a bare Chromium on a fresh profile under root and
// returns once it announced its websocket.
func startChromium(ctx context.Context, browser, root string) (*chromiumProc, error) {
	profile, err := os.MkdirTemp(root, "p")
	if err != nil {
		return nil, err
	}
	wsCh := make(chan string, 1)
	stderr := newLineWriter(20, func(line string) {
		if ws, ok := parseDevToolsLine(line); ok {
			select {
			case wsCh <- ws:
			default:
			}
		}
	})
	ch, err := startChild("chromium", exec.Command(browser, chromiumArgs(profile)...), nil, stderr, root)
	if err != nil {
		_ = os.RemoveAll(profile)
		return nil, err
	}
	p := &chromiumProc{child: ch, profile: profile}
	select {
	case p.ws = <-wsCh:
		return p, nil
	case <-ch.exited:
		err = fmt.Errorf("chromium exited before announcing its websocket; last stderr:\n%s", stderr.tail())
	case <-time.After(30 * time.Second):
		err = fmt.Errorf("chromium did not announce its websocket within 30 s; last stderr:\n%s", stderr.tail())
	case <-ctx.Done():
		err = ctx.Err()
	}
	p.stop()
	return nil, err
}

// stop ends the browser's group and removes its profile.
func (p *chromiumProc) stop() {
	p.killAll()
	_ = os.RemoveAll(p.profile)
}

// cdpvisorProc is a running `cdpvisor serve`.
type cdpvisorProc struct {
	*child
	endpoint string
	stateDir string
}

// startCdpvisor runs `cdpvisor serve` with its own state dir under root and
// returns once it printed its endpoint (no browser runs yet).
// Its stderr also goes to logTo when that is not nil (--cdpvisor-log); env
// entries are added to its environment (and so to its browser's).
func startCdpvisor(ctx context.Context, bin, browser, root, logLevel string, logTo io.Writer, env ...string) (*cdpvisorProc, error) {
	return startCdpvisorWith(ctx, bin, browser, root, logLevel, logTo, nil, env...)
}

// startCdpvisorWith is startCdpvisor with more flags of serve (the soak's
// --record and its caps).
func startCdpvisorWith(ctx context.Context, bin, browser, root, logLevel string, logTo io.Writer, flags []string, env ...string) (*cdpvisorProc, error) {
	stateDir, err := os.MkdirTemp(root, "s")
	if err != nil {
		return nil, err
	}
	epCh := make(chan string, 1)
	stdout := newLineWriter(5, func(line string) {
		if ep, ok := parseEndpointLine(line); ok {
			select {
			case epCh <- ep:
			default:
			}
		}
	})
	var onLine func(string)
	if logTo != nil {
		onLine = func(line string) { fmt.Fprintln(logTo, line) }
	}
	stderr := newLineWriter(20, onLine)
	cmd := exec.Command(bin, append([]string{"serve", "--port", "0", "--browser", browser, "--state-dir", stateDir, "--log-level", logLevel}, flags...)...)
	cmd.Env = env
	ch, err := startChild("cdpvisor", cmd, stdout, stderr, root)
	if err != nil {
		_ = os.RemoveAll(stateDir)
		return nil, err
	}
	p := &cdpvisorProc{child: ch, stateDir: stateDir}
	select {
	case p.endpoint = <-epCh:
		return p, nil
	case <-ch.exited:
		err = fmt.Errorf("cdpvisor exited before printing its endpoint; last stderr:\n%s", stderr.tail())
	case <-time.After(15 * time.Second):
		err = fmt.Errorf("cdpvisor did not print its endpoint within 15 s; last stderr:\n%s", stderr.tail())
	case <-ctx.Done():
		err = ctx.Err()
	}
	p.stop()
	return nil, err
}

// stop asks cdpvisor to stop (SIGTERM: it ends its browser and removes its
// profile and state), waits, and only then forces its group.
func (p *cdpvisorProc) stop() {
	_ = terminate(p.pid)
	if !p.waitExit(10 * time.Second) {
		fmt.Fprintf(os.Stderr, "cdpbench: cdpvisor %d ignored SIGTERM for 10 s; killing its group\n", p.pid)
	}
	p.killAll()
	// cdpvisor's guard names the state dir; it ends when cdpvisor says
	// bye. Anything left is reported and ended by pid.
	deadline := time.Now().Add(3 * time.Second)
	for len(processesMatching(p.stateDir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, pid := range processesMatching(p.stateDir) {
		fmt.Fprintf(os.Stderr, "cdpbench: process %d of cdpvisor %d outlived it; killing it\n", pid, p.pid)
		_ = killPid(pid)
	}
	_ = os.RemoveAll(p.stateDir)
}

// findCdpvisor returns the cdpvisor binary: the one given, else one built
// from the module this command runs in, else `cdpvisor` on PATH.
func findCdpvisor(ctx context.Context, given, root string) (string, error) {
	if given != "" {
		if _, err := os.Stat(given); err != nil {
			return "", fmt.Errorf("--cdpvisor-bin: %w", err)
		}
		return filepath.Abs(given)
	}
	if dir := moduleRoot(); dir != "" {
		out := filepath.Join(root, "cdpvisor")
		if runtime.GOOS == "windows" {
			out += ".exe"
		}
		cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/cdpvisor")
		cmd.Dir = dir
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		fmt.Fprintf(os.Stderr, "cdpbench: building cdpvisor from %s\n", dir)
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("go build ./cmd/cdpvisor: %w\n%s", err, buf.String())
		}
		return out, nil
	}
	if p, err := exec.LookPath("cdpvisor"); err == nil {
		return p, nil
	}
	return "", errors.New("no cdpvisor: give --cdpvisor-bin, run inside the cdpvisor module, or put cdpvisor on PATH")
}

// moduleRoot is the directory of the cdpvisor module containing the
// working directory, or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			first, _, _ := strings.Cut(string(b), "\n")
			if strings.TrimSpace(first) == "module github.com/cdpvisor/cdpvisor" {
				return dir
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
