package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// scripts are the fakes of actors/chrome/wsl/scripts, by file name.
var scripts = map[string]func(w *windows, p map[string]string) (string, error){
	wsl.ScriptStart:      start,
	wsl.ScriptWait:       wait,
	wsl.ScriptStop:       stop,
	wsl.ScriptList:       list,
	wsl.ScriptTempDir:    tempDir,
	wsl.ScriptRemove:     remove,
	wsl.ScriptActivePort: activePort,
	wsl.ScriptEnv:        env,
	wsl.ScriptHTTP:       httpRequest,
	wsl.ScriptRelay:      relay,
}

func intParam(p map[string]string, name string) (int, error) {
	n, err := strconv.Atoi(p[name])
	if err != nil {
		return 0, fmt.Errorf("parameter %s: %q is not a number", name, p[name])
	}
	return n, nil
}

func start(w *windows, p map[string]string) (string, error) {
	exe, err := w.linux(p["FilePath"])
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(exe); err != nil || !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s does not exist", p["FilePath"])
	}
	args := wsl.SplitArgs(p["ArgumentList"])
	for i, a := range args {
		args[i] = w.translateArg(a)
	}
	if w.nat {
		args = append(args, "--remote-debugging-address=127.0.0.2")
	}
	pid, err := spawnHost(hostSpec{
		Exe: exe, Args: args, WinExe: p["FilePath"],
		CommandLine: wsl.QuoteArg(p["FilePath"]) + " " + p["ArgumentList"],
	})
	if err != nil {
		return "", err
	}
	return strconv.Itoa(pid), nil
}

// translateArg is the file system's view: a program on Windows opens
// C:\x, which on this fake is $FAKEWIN_DRIVES/c/x.
func (w *windows) translateArg(a string) string {
	if name, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "--") && wsl.IsWindowsPath(value) {
		if l, err := w.linux(value); err == nil {
			return name + "=" + l
		}
	}
	if wsl.IsWindowsPath(a) {
		if l, err := w.linux(a); err == nil {
			return l
		}
	}
	return a
}

func wait(w *windows, p map[string]string) (string, error) {
	pid, err := intParam(p, "Id")
	if err != nil {
		return "", err
	}
	e, ok := w.read(pid)
	if !ok {
		return "", nil
	}
	// wait.ps1 also ends, printing nothing, when its stdin closes.
	released := make(chan struct{})
	go func() { // owned: ends at stdin's EOF, or with this process
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(released)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !e.Exited {
		select {
		case <-released:
			return "", nil
		case <-tick.C:
		}
		e, _ = w.read(pid)
	}
	return strconv.Itoa(e.ExitCode), nil
}

func stop(w *windows, p map[string]string) (string, error) {
	pid, err := intParam(p, "Id")
	if err != nil {
		return "", err
	}
	timeout, err := intParam(p, "TimeoutMs")
	if err != nil {
		return "", err
	}
	holdStop()
	e, ok := w.read(pid)
	if !ok || e.Exited {
		return "gone", nil
	}
	// TerminateProcess: no grace. The host ends the helpers after it.
	_ = syscall.Kill(-e.LinuxPid, syscall.SIGKILL)
	for end := time.Now().Add(time.Duration(timeout) * time.Millisecond); ; time.Sleep(20 * time.Millisecond) {
		if e, _ = w.read(pid); e.Exited {
			return "stopped", nil
		}
		if time.Now().After(end) {
			return "running", nil
		}
	}
}

// holdStop waits while the test holds Stop-Process (FAKEWIN_STOP_GATE).
func holdStop() {
	gate := os.Getenv("FAKEWIN_STOP_GATE")
	if gate == "" {
		return
	}
	for _, err := os.Stat(gate); err != nil; _, err = os.Stat(gate) {
		time.Sleep(20 * time.Millisecond)
	}
}

// cimProcess is what list.ps1 selects of Win32_Process.
type cimProcess struct {
	ProcessId       int
	ParentProcessId int
	Name            string
	ExecutablePath  string
	CommandLine     string
}

func list(w *windows, p map[string]string) (string, error) {
	names := map[string]bool{}
	for _, n := range strings.Split(p["Names"], ",") {
		names[strings.ToLower(n)] = true
	}
	out := []cimProcess{}
	for _, e := range w.all() {
		if !e.Exited && names[strings.ToLower(e.Name)] {
			out = append(out, cimProcess{e.WinPid, 0, e.Name, e.Exe, e.CommandLine})
		}
	}
	data, err := json.Marshal(out)
	return string(data), err
}

func tempDir(w *windows, p map[string]string) (string, error) {
	var b [5]byte
	_, _ = rand.Read(b[:])
	dir := w.localAppData() + `\Temp\` + p["Prefix"] + hex.EncodeToString(b[:])
	l, err := w.linux(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(path.Dir(l), 0o700); err != nil {
		return "", err
	}
	return dir, os.Mkdir(l, 0o700)
}

func remove(w *windows, p map[string]string) (string, error) {
	win := p["Path"]
	leaf := win[strings.LastIndexAny(win, `\/`)+1:]
	if p["Prefix"] == "" || !strings.HasPrefix(leaf, p["Prefix"]) {
		return "", fmt.Errorf("%s is not a cdpvisor temporary directory", win)
	}
	l, err := w.linux(win)
	if err != nil {
		return "", err
	}
	return "", os.RemoveAll(l)
}

func activePort(w *windows, p map[string]string) (string, error) {
	l, err := w.linux(p["Profile"])
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(path.Join(l, "DevToolsActivePort"))
	if err != nil {
		return "", fmt.Errorf("no DevToolsActivePort in %s", p["Profile"])
	}
	return string(data), nil
}

func env(w *windows, _ map[string]string) (string, error) {
	data, err := json.Marshal(map[string]string{"LocalAppData": w.localAppData(), "Temp": w.localAppData() + `\Temp`})
	return string(data), err
}
