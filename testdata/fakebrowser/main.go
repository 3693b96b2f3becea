// Command fakebrowser stands in for Chromium in tests. It takes Chromium's
// command line, prints Chromium-like stderr, serves the DevTools HTTP and
// websocket endpoints or the debugging pipe with a small CDP subset, and
// injects faults on request with --fake-* switches (see args.go).
package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	opts, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if opts.child {
		runChild()
	}
	var pipeIn, pipeOut *os.File
	if opts.pipe {
		pipeIn, pipeOut = openPipe()
	}
	b := newBrowser(opts)
	b.handleSignals()
	// Fds 3 and 4 belong to the pipe transport: keep them from the helper
	// child, or the client would not see EOF when this process dies.
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)

	if opts.userDataDir != "" {
		// Chromium creates its profile at start; tests check it is there while
		// the browser runs and gone only after it exited.
		if err := os.MkdirAll(opts.userDataDir, 0o700); err != nil {
			fmt.Fprintln(os.Stderr, "fakebrowser:", err)
			os.Exit(1)
		}
		_ = os.WriteFile(opts.userDataDir+"/Local State", []byte("{}"), 0o600)
	}
	log := stderrLog{split: opts.splitStderr}
	log.lines(opts.stderrLines)
	log.noise(2)
	if opts.spawnChild {
		if err := b.startChild(); err != nil {
			fmt.Fprintln(os.Stderr, "fakebrowser: starting helper:", err)
			os.Exit(1)
		}
	}
	if opts.pidFile != "" {
		if err := b.writePidFile(); err != nil {
			fmt.Fprintln(os.Stderr, "fakebrowser:", err)
			os.Exit(1)
		}
	}
	if opts.exitCode >= 0 {
		os.Exit(opts.exitCode) // a helper, if any, is left behind as after a crash
	}
	if opts.crashOnStart {
		crash()
	}
	if opts.neverReady {
		select {}
	}
	time.Sleep(opts.startDelay)
	if opts.port >= 0 {
		b.serveHTTP(log)
	}
	log.noise(1)
	if opts.pipe {
		go b.servePipe(pipeIn, pipeOut)
	}
	select {} // signals, Browser.close, pipe EOF and crashes end the process
}
