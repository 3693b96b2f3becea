package actortest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

const fakeWinPackage = "github.com/cdpvisor/cdpvisor/testdata/fakewin"

var fakeWinBuild struct {
	once sync.Once
	dir  string
	err  error
}

// FakeWindows is a fake Windows side for WSL tests: a machine root whose
// drive mount ($Root/mnt/c) holds Chrome at its usual place, and a
// powershell.exe (testdata/fakewin) first on $PATH that runs cdpvisor's
// scripts against it with a process table of its own.
type FakeWindows struct {
	Root    string // CDPVISOR_DETECT_ROOT: /mnt/c is Root/mnt/c
	Drives  string // Root/mnt
	User    string
	BinDir  string // holds powershell.exe
	Chrome  string // the Linux path of the fake chrome.exe
	Browser string // what chrome.exe runs
	// ExtraEnv is added to Env (FAKEWIN_NAT=1, …), for cdpvisor and for
	// what the test itself starts on the fake Windows side.
	ExtraEnv []string
}

// NewFakeWindows builds the fake with a chrome.exe that runs browser (the
// fake browser, or Debian's chromium) with the arguments Windows gives it,
// its paths turned into the drive mount's.
func NewFakeWindows(t testing.TB, browser string) *FakeWindows {
	t.Helper()
	fakeWinBuild.once.Do(func() { fakeWinBuild.dir, fakeWinBuild.err = buildFakeWin() })
	if fakeWinBuild.err != nil {
		t.Fatal(fakeWinBuild.err)
	}
	root, err := os.MkdirTemp("", "cdpvtw-") // short: Chromium dislikes long paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	f := &FakeWindows{Root: root, Drives: filepath.Join(root, "mnt"), User: "ann", BinDir: fakeWinBuild.dir, Browser: browser}
	f.Chrome = filepath.Join(f.Drives, "c", "Program Files", "Google", "Chrome", "Application", "chrome.exe")
	for _, dir := range []string{filepath.Dir(f.Chrome), f.TempDir()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sandbox := ""
	if os.Geteuid() == 0 {
		sandbox = " --no-sandbox" // Linux Chromium as root; Windows Chrome needs nothing
	}
	script := fmt.Sprintf("#!/bin/sh\nexec %s \"$@\"%s\n", shellQuote(browser), sandbox)
	if err := os.WriteFile(f.Chrome, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// TempDir is the Windows user's %TEMP% through the drive mount.
func (f *FakeWindows) TempDir() string {
	return filepath.Join(f.Drives, "c", "Users", f.User, "AppData", "Local", "Temp")
}

// Env is the environment of a cdpvisor inside the fake WSL.
func (f *FakeWindows) Env() []string {
	return append([]string{
		"CDPVISOR_DETECT_ROOT=" + f.Root,
		"WSL_DISTRO_NAME=FakeDistro",
		"FAKEWIN_DRIVES=" + f.Drives,
		"FAKEWIN_USER=" + f.User,
		"PATH=" + f.BinDir + string(os.PathListSeparator) + os.Getenv("PATH"),
	}, f.ExtraEnv...)
}

// TempProfiles lists the cdpvisor directories in the Windows %TEMP%.
func (f *FakeWindows) TempProfiles() []string {
	found, _ := filepath.Glob(filepath.Join(f.TempDir(), "cdpv-*"))
	return found
}

// FakeWinProc is a running process of the fake's Windows process table.
type FakeWinProc struct {
	WinPid, LinuxPid int
	CommandLine      string
}

// Running lists the processes the fake's Windows process table shows
// running.
func (f *FakeWindows) Running() []FakeWinProc {
	var out []FakeWinProc
	entries, _ := filepath.Glob(filepath.Join(f.Drives, "c", ".fakewin", "procs", "*.json"))
	for _, e := range entries {
		data, err := os.ReadFile(e)
		var p struct {
			FakeWinProc
			HostPid int
			Exited  bool
		}
		if err == nil && json.Unmarshal(data, &p) == nil && !p.Exited && Alive(p.HostPid) {
			out = append(out, p.FakeWinProc)
		}
	}
	return out
}

func buildFakeWin() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("actortest: go env GOMOD: %v", err)
	}
	dir, err := os.MkdirTemp("", buildDirPrefix)
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "powershell.exe"), fakeWinPackage)
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("actortest: building the fake powershell.exe: %v\n%s", err, out)
	}
	return dir, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Scripts lists the Linux pids of the fake powershell.exe processes now
// running the named script (relay.ps1: the NAT helpers), anyone's.
func (f *FakeWindows) Scripts(name string) []int {
	exe := filepath.Join(f.BinDir, "powershell.exe")
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || zombie(pid) {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(string(raw), "\x00")
		if err != nil || len(args) < 2 || args[0] != exe {
			continue
		}
		for i, a := range args {
			if strings.EqualFold(a, "-EncodedCommand") && i+1 < len(args) {
				if text, err := wsl.DecodeCommand(args[i+1]); err == nil {
					if got, _, err := wsl.ParseScript(text); err == nil && got == name {
						out = append(out, pid)
					}
				}
			}
		}
	}
	return out
}

// ChromeWindowsPath is where the fake's chrome.exe is, as Windows names it.
const ChromeWindowsPath = `C:\Program Files\Google\Chrome\Application\chrome.exe`

// StartChrome starts chrome.exe on the fake Windows side with args, as a
// user would (start.ps1, outside cdpvisor), and returns its Windows pid;
// the test's end stops it if it still runs.
func (f *FakeWindows) StartChrome(t testing.TB, args ...string) int {
	t.Helper()
	out := f.RunScript(t, wsl.ScriptStart, wsl.Param{Name: "FilePath", Value: ChromeWindowsPath},
		wsl.Param{Name: "ArgumentList", Value: wsl.CommandLine(args)}, wsl.Param{Name: "Hidden", Value: 1})
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("start.ps1 printed %q", out)
	}
	t.Cleanup(func() {
		f.RunScript(t, wsl.ScriptStop, wsl.Param{Name: "Id", Value: pid}, wsl.Param{Name: "TimeoutMs", Value: 5000})
	})
	return pid
}

// RunScript runs one of cdpvisor's scripts on the fake Windows side.
func (f *FakeWindows) RunScript(t testing.TB, name string, params ...wsl.Param) string {
	t.Helper()
	cmd, err := wsl.PowerShell{Exe: filepath.Join(f.BinDir, "powershell.exe")}.Command(context.Background(), name, params...)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), f.Env()...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fake powershell.exe %s: %v", name, err)
	}
	return string(out)
}

// ExitCode is the exit code the fake's Windows process table recorded for
// winPid (0 after Browser.close, 1 after Stop-Process or a kill), and
// whether it has exited.
func (f *FakeWindows) ExitCode(winPid int) (int, bool) {
	data, err := os.ReadFile(filepath.Join(f.Drives, "c", ".fakewin", "procs", fmt.Sprintf("%d.json", winPid)))
	var p struct {
		Exited   bool
		ExitCode int
	}
	if err != nil || json.Unmarshal(data, &p) != nil || !p.Exited {
		return 0, false
	}
	return p.ExitCode, true
}
