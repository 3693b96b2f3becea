// Command fakewin is the Windows side of the WSL tests, built as
// powershell.exe and put first on $PATH. It receives exactly what cdpvisor
// sends to the real powershell.exe (-EncodedCommand with one of the scripts
// of actors/chrome/wsl/scripts), reads which script and which parameters
// (wsl.ParseScript), and does what the script would do on Windows, against
// a fake drive root (C: is $FAKEWIN_DRIVES/c) and a Windows process table of
// its own: Windows pids are never Linux pids, so cdpvisor cannot get by
// signalling a Linux process.
//
// A "Windows process" is a Linux process started by a fakewin host (this
// program with --fakewin-host), which waits for it, records its exit code
// and ends its helpers, as Windows does when a browser dies.
//
// Environment:
//
//	FAKEWIN_DRIVES  the directory holding the drive mounts (c/, d/, …); required
//	FAKEWIN_USER    the Windows user name (default ann)
//	FAKEWIN_NAT=1   Windows' loopback is not WSL's: programs started here get
//	                --remote-debugging-address=127.0.0.2, so a browser is not
//	                reachable on 127.0.0.1 (WSL's NAT networking)
//	FAKEWIN_NAT=netns  every program started here runs in a network
//	                namespace of its own (CLONE_NEWNET; needs root), so any
//	                browser, Chromium too, is unreachable from cdpvisor, and
//	                the helpers dial inside the namespace of the program that
//	                serves the port
//	FAKEWIN_FAIL=1  every script fails (a broken powershell.exe);
//	                FAKEWIN_FAIL=stop.ps1,… only the scripts named
//	FAKEWIN_STOP_GATE=FILE  stop.ps1 waits until FILE exists before it
//	                stops anything, so a test can look at the moment
//	                between a coordinator's death and its browser's stop
//	FAKEWIN_NORELAY=1  the helper scripts (http.ps1, relay.ps1) fail: NAT
//	                networking with no way through
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == hostFlag {
		os.Exit(host(os.Args[2:]))
	}
	if len(os.Args) > 2 && os.Args[1] == netnsFlag {
		os.Exit(inNetns(os.Args[2:]))
	}
	if os.Getenv("FAKEWIN_FAIL") == "1" {
		fail("fake powershell.exe: failing as asked (FAKEWIN_FAIL=1)")
	}
	enc := ""
	for i, a := range os.Args {
		if strings.EqualFold(a, "-EncodedCommand") && i+1 < len(os.Args) {
			enc = os.Args[i+1]
		}
	}
	if enc == "" {
		fail("fake powershell.exe: only -EncodedCommand is supported, got %q", os.Args[1:])
	}
	text, err := wsl.DecodeCommand(enc)
	if err != nil {
		fail("fake powershell.exe: %v", err)
	}
	name, params, err := wsl.ParseScript(text)
	if err != nil {
		fail("fake powershell.exe: %v", err)
	}
	w, err := newWindows()
	if err != nil {
		fail("fake powershell.exe: %v", err)
	}
	if slices.Contains(strings.Split(os.Getenv("FAKEWIN_FAIL"), ","), name) {
		fail("fake powershell.exe: %s failing as asked (FAKEWIN_FAIL)", name)
	}
	if os.Getenv("FAKEWIN_NORELAY") == "1" && (name == wsl.ScriptHTTP || name == wsl.ScriptRelay) {
		fail("fake powershell.exe: %s failing as asked (FAKEWIN_NORELAY=1)", name)
	}
	run, ok := scripts[name]
	if !ok {
		fail("fake powershell.exe: no fake for script %s", name)
	}
	out, err := run(w, params)
	if err != nil {
		// What the scripts' catch block does: the message, exit code 1.
		fail("%v", err)
	}
	fmt.Print(out)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
