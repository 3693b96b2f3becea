package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

const hostFlag = "--fakewin-host"

// hostSpec is what start.ps1's fake asks a host to run.
type hostSpec struct {
	Exe         string // Linux path
	Args        []string
	WinExe      string
	CommandLine string
}

// spawnHost starts a detached host for spec and returns the Windows pid
// once the program runs (or why it could not start).
func spawnHost(spec hostSpec) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	data, _ := json.Marshal(spec)
	r, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(self, hostFlag, string(data))
	cmd.ExtraFiles = []*os.File{pw}                      // fd 3: the answer
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // a Windows process outlives its starter
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pw.Close()
	var answer struct {
		WinPid int
		Err    string
	}
	err = json.NewDecoder(r).Decode(&answer)
	r.Close()
	_ = cmd.Process.Release()
	switch {
	case err != nil:
		return 0, fmt.Errorf("the fake Windows host did not answer: %v", err)
	case answer.Err != "":
		return 0, errors.New(answer.Err)
	}
	return answer.WinPid, nil
}

// host runs one "Windows process": starts it, enters it in the table,
// waits for it, records its exit, and ends its helpers (on Windows they
// follow their browser).
func host(args []string) int {
	answer := os.NewFile(3, "answer")
	reply := func(pid int, err error) {
		v := map[string]any{"WinPid": pid}
		if err != nil {
			v["Err"] = err.Error()
		}
		_ = json.NewEncoder(answer).Encode(v)
		answer.Close()
	}
	var spec hostSpec
	if len(args) != 1 || json.Unmarshal([]byte(args[0]), &spec) != nil {
		reply(0, errors.New("bad host spec"))
		return 2
	}
	w, err := newWindows()
	if err != nil {
		reply(0, err)
		return 2
	}
	winPid := winPid(os.Getpid())
	logFile, _ := os.Create(filepath.Join(w.table, fmt.Sprintf("%d.log", winPid)))
	cmd := exec.Command(spec.Exe, spec.Args...)
	if w.netns {
		cmd = isolated(spec.Exe, spec.Args)
	}
	cmd.Dir = path.Dir(spec.Exe)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if w.netns {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWNET
	}
	if err := cmd.Start(); err != nil {
		reply(0, fmt.Errorf("This command cannot be run due to the error: %v", err))
		return 1
	}
	name := spec.WinExe[strings.LastIndexAny(spec.WinExe, `\/`)+1:]
	e := proc{WinPid: winPid, LinuxPid: cmd.Process.Pid, HostPid: os.Getpid(), Name: name, Exe: spec.WinExe, CommandLine: spec.CommandLine}
	if err := w.write(e); err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		reply(0, err)
		return 1
	}
	reply(winPid, nil)
	err = cmd.Wait()
	_ = syscall.Kill(-e.LinuxPid, syscall.SIGKILL)
	e.Exited, e.ExitCode = true, 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		e.ExitCode = ee.ExitCode()
		if e.ExitCode < 0 {
			e.ExitCode = 1 // TerminateProcess(h, 1), as Stop-Process does
		}
	}
	_ = w.write(e)
	if logFile != nil {
		logFile.Close()
	}
	return 0
}
