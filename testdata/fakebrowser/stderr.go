package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// stderrLog writes what Chromium writes to stderr: log noise around the one
// line that matters. With split set, every piece goes out in its own write
// with pauses between, so readers must join pieces into whole lines.
type stderrLog struct {
	split bool
}

const splitPause = 20 * time.Millisecond

var noiseTexts = []string{
	`ERROR:dbus/bus.cc:408] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory`,
	`ERROR:dbus/bus.cc:408] Failed to connect to the bus: Could not parse server address: Unknown address type (examples of valid types are "tcp" and on UNIX "unix")`,
	`WARNING:sandbox/policy/linux/sandbox_linux.cc:430] InitializeSandbox() called with multiple threads in process gpu-process.`,
}

// noisePrefix starts a line the way Chromium's logging does:
// [pid:tid:MMDD/HHMMSS.micros:LEVEL:file:line] text
func noisePrefix() string {
	now := time.Now()
	pid := os.Getpid()
	return fmt.Sprintf("[%d:%d:%s.%06d:", pid, pid, now.Format("0102/150405"), now.Nanosecond()/1000)
}

func noiseLine(i int) string {
	return noisePrefix() + noiseTexts[i%len(noiseTexts)] + "\n"
}

func (l stderrLog) write(s string) {
	if l.split {
		time.Sleep(splitPause)
	}
	os.Stderr.WriteString(s)
}

// noise writes n log lines.
func (l stderrLog) noise(n int) {
	for i := range n {
		l.write(noiseLine(i))
	}
}

// lines writes the texts given with --fake-stderr-line.
func (l stderrLog) lines(texts []string) {
	for _, text := range texts {
		l.write(text + "\n")
	}
}

// devToolsLine announces the browser endpoint; Chromium prints an empty line
// before it.
func (l stderrLog) devToolsLine(wsURL string) {
	line := "\nDevTools listening on " + wsURL + "\n"
	if !l.split {
		l.write(line)
		return
	}
	cut1 := len("\nDevTools list")
	cut2 := strings.Index(line, "/devtools/") + len("/devto")
	if cut2 < cut1 {
		l.write(line)
		return
	}
	l.write(line[:cut1])
	l.write(line[cut1:cut2])
	l.write(line[cut2:])
}
