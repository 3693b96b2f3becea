package main

import (
	"bufio"
	"os"
	"sync"
	"time"
)

// servePipe speaks CDP over fds 3 (commands in) and 4 (replies and events
// out), each message followed by one NUL byte, as --remote-debugging-pipe
// does. EOF on fd 3 means the client is gone: exit 0 like Chromium. The
// first answer is the pipe's readiness, so --fake-ready-delay holds it back;
// messages sent meanwhile wait in the pipe. Browser sessions ride on this
// one conn (browser_sessions.go).
func (b *browser) servePipe(in, out *os.File) {
	time.Sleep(b.opts.readyDelay)
	var writeMu sync.Mutex
	send := func(msg []byte) error {
		writeMu.Lock()
		defer writeMu.Unlock()
		_, err := out.Write(append(msg, 0)) // one write per message
		return err
	}
	c := newConn(send, func() {}, nil)
	c.pipeRoot = true
	b.addConn(c)

	r := bufio.NewReaderSize(in, 1<<20)
	for {
		msg, err := r.ReadBytes(0)
		if err != nil {
			b.exit(0)
		}
		b.handle(c, msg[:len(msg)-1])
	}
}

// openPipe takes fds 3 and 4, which must be pipes or sockets: when the
// client passed nothing there, the Go runtime may have opened fds of its own
// with these numbers. Like Chromium, it exits 13 when they are not open.
func openPipe() (in, out *os.File) {
	in, out = os.NewFile(3, "cdp-in"), os.NewFile(4, "cdp-out")
	if !isPipe(in) || !isPipe(out) {
		os.Stderr.WriteString(noisePrefix() + "ERROR:chrome/app/chrome_main_delegate.cc:1226] Remote debugging pipe file descriptors are not open.\n")
		os.Exit(13)
	}
	return in, out
}

func isPipe(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0
}
