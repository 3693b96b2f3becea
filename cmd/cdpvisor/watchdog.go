package main

import (
	"flag"
	"io"
	"os"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
	"github.com/rs/zerolog"
)

// runWatchdog is the detached process a coordinator starts per launched
// browser (internal). It waits on fd 3; if the coordinator dies without
// releasing it, it ends the browser and removes what the coordinator left.
func runWatchdog(args []string, sys launch.System, stderr io.Writer) error {
	var s watchdog.ProcessSpec
	fs := flag.NewFlagSet("watchdog", flag.ContinueOnError)
	fs.IntVar(&s.Browser.Pid, "browser-pid", 0, "the guarded browser's pid")
	fs.StringVar(&s.Browser.Exe, "exe", "", "the browser's executable, to tell it from a process that reused its pid")
	fs.StringVar(&s.Browser.UserDataDir, "user-data-dir", "", "the browser's profile")
	fs.BoolVar(&s.Browser.Headless, "headless", false, "the browser was launched headless")
	fs.IntVar(&s.Browser.WindowsPid, "windows-pid", 0, "a Windows browser's pid (WSL): ended through powershell.exe")
	fs.IntVar(&s.Browser.Port, "port", 0, "a Windows browser's debugging port, to tell it from a process that reused its pid")
	fs.StringVar(&s.RemoveDir, "remove", "", "the launch's temporary directory")
	fs.StringVar(&s.StateFile, "state-file", "", "the coordinator's state file")
	fs.IntVar(&s.CoordinatorPID, "coordinator-pid", 0, "the coordinator's pid")
	if err := parseFlags(fs, args, stderr); err != nil { // internal: its help goes to stderr
		return err
	}
	if (s.Browser.Pid <= 0 && s.Browser.WindowsPid <= 0) || s.Browser.UserDataDir == "" {
		return usageErr("watchdog needs --browser-pid and --user-data-dir (it is started by the coordinator, not by hand)")
	}
	pipe := os.NewFile(3, "coordinator")
	if pipe == nil {
		return usageErr("watchdog needs the coordinator's pipe on fd 3")
	}
	log := zerolog.New(stderr).With().Timestamp().Str("role", "watchdog").Int("browser", s.Browser.Pid).Int("windowsBrowser", s.Browser.WindowsPid).Logger()
	if watchdog.Wait(pipe) {
		watchdog.Cleanup(s, sys, log)
	}
	return nil
}

// watchdogExe is this executable, for the coordinator's watchdogs.
func watchdogExe() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
