package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// windows is the fake machine: its drives and its process table.
type windows struct {
	mounts wsl.Mounts
	user   string
	table  string // the process table's directory
	nat    bool   // Windows' loopback is 127.0.0.2
	netns  bool   // each program has a network namespace of its own
}

func newWindows() (*windows, error) {
	drives := os.Getenv("FAKEWIN_DRIVES")
	if drives == "" {
		return nil, errors.New("FAKEWIN_DRIVES is not set")
	}
	user := os.Getenv("FAKEWIN_USER")
	if user == "" {
		user = "ann"
	}
	w := &windows{
		mounts: wsl.Mounts{DriveRoot: filepath.Clean(drives), IsDir: isDir},
		user:   user,
		table:  filepath.Join(drives, "c", ".fakewin", "procs"),
		nat:    os.Getenv("FAKEWIN_NAT") == "1",
		netns:  os.Getenv("FAKEWIN_NAT") == "netns",
	}
	return w, os.MkdirAll(w.table, 0o700)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// linux is where a Windows path is on this machine.
func (w *windows) linux(win string) (string, error) { return w.mounts.ToLinux(win) }

func (w *windows) localAppData() string { return `C:\Users\` + w.user + `\AppData\Local` }

// proc is one entry of the process table.
type proc struct {
	WinPid      int
	LinuxPid    int // the program's
	HostPid     int // the fakewin host waiting for it
	Name        string
	Exe         string // Windows path
	CommandLine string
	Exited      bool
	ExitCode    int
}

func (w *windows) entry(pid int) string { return filepath.Join(w.table, fmt.Sprintf("%d.json", pid)) }

func (w *windows) read(pid int) (proc, bool) {
	data, err := os.ReadFile(w.entry(pid))
	if err != nil {
		return proc{}, false
	}
	var p proc
	if json.Unmarshal(data, &p) != nil {
		return proc{}, false
	}
	if !p.Exited && !alive(p.HostPid) {
		// The host was killed (not something Windows does): the process is gone.
		p.Exited, p.ExitCode = true, 1
	}
	return p, true
}

func (w *windows) write(p proc) error {
	data, _ := json.Marshal(p)
	tmp := w.entry(p.WinPid) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, w.entry(p.WinPid))
}

func (w *windows) all() []proc {
	names, _ := filepath.Glob(filepath.Join(w.table, "*.json"))
	var out []proc
	for _, n := range names {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(n), "%d.json", &pid); err == nil {
			if p, ok := w.read(pid); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// alive reports whether a Linux pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}

// winPid is the Windows pid of a host: a multiple of 4, as on Windows, and
// above any Linux pid (pid_max is at most 2^22).
func winPid(hostPid int) int { return 1<<23 + 4*hostPid }
