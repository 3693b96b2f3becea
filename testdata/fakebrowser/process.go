package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// handleSignals makes SIGTERM and SIGINT a clean exit 0, unless
// --fake-ignore-sigterm asks for a browser that only SIGKILL ends.
func (b *browser) handleSignals() {
	// Chromium ignores SIGPIPE: a closed stderr or pipe is an error, not death.
	signal.Ignore(syscall.SIGPIPE)
	sigs := make(chan os.Signal, 1)
	if b.opts.ignoreSIGTERM {
		signal.Ignore(syscall.SIGTERM)
		signal.Notify(sigs, os.Interrupt)
	} else {
		signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	}
	go func() {
		<-sigs
		b.exit(0)
	}()
}

// exit is the orderly way out: close the port, end the helper child, exit.
func (b *browser) exit(code int) {
	b.exitOnce.Do(func() {
		b.procMu.Lock()
		if b.listener != nil {
			b.listener.Close()
		}
		child := b.child
		b.procMu.Unlock()
		stopChild(child)
		os.Exit(code)
	})
}

// startChild re-executes the fake as a helper in the same process group,
// like Chromium's zygote and renderers. It shares stdout and stderr too, so
// a reader of the browser's stderr sees EOF only when the helper is gone.
func (b *browser) startChild() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, "--fake-child")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	b.procMu.Lock()
	b.child = cmd
	b.procMu.Unlock()
	return nil
}

func stopChild(cmd *exec.Cmd) {
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		cmd.Process.Kill()
	}
}

// runChild is the helper's whole life: wait for SIGTERM or SIGINT.
func runChild() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	<-sigs
	os.Exit(0)
}

// writePidFile writes the browser's pid and its helper's, one a line, via a
// rename so a reader never sees half a file.
func (b *browser) writePidFile() error {
	pids := []string{fmt.Sprint(os.Getpid())}
	if b.child != nil {
		pids = append(pids, fmt.Sprint(b.child.Process.Pid))
	}
	tmp := filepath.Join(filepath.Dir(b.opts.pidFile), "."+filepath.Base(b.opts.pidFile)+".tmp")
	if err := os.WriteFile(tmp, []byte(strings.Join(pids, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, b.opts.pidFile)
}

// crash ends the process by a signal, as a crashing Chromium ends: its
// parent sees no exit code of its own.
func crash() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	select {}
}
