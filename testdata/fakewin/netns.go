package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// isolated is the command that runs exe in a network namespace of its own
// with its loopback up (FAKEWIN_NAT=netns): nothing outside reaches its
// 127.0.0.1, as WSL does not reach Windows' under NAT networking. unshare
// and sh exec in turn, so the program keeps the command's pid.
func isolated(exe string, args []string) *exec.Cmd {
	ip := "ip"
	for _, p := range []string{"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"} {
		if _, err := os.Stat(p); err == nil {
			ip = p
			break
		}
	}
	script := ip + ` link set lo up && exec "$0" "$@"`
	return exec.Command("unshare", append([]string{"-n", "--", "sh", "-c", script, exe}, args...)...)
}

// dial reaches addr on Windows' loopback: in netns mode, inside the
// namespace of whichever running program answers there; otherwise WSL's.
func (w *windows) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if !w.netns {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	var errs []error
	for _, p := range w.all() {
		if p.Exited {
			continue
		}
		c, err := dialIn(ctx, p.LinuxPid, network, addr)
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("nothing answers on %s in the fake Windows: %w", addr, errors.Join(errs...))
}

// dialIn connects from inside pid's network namespace: the socket is made
// on a thread that entered it, and stays there once connected.
func dialIn(ctx context.Context, pid int, network, addr string) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Never unlocked: the thread ends with this goroutine rather than
		// run other goroutines inside the namespace.
		runtime.LockOSThread()
		ns, err := os.Open(fmt.Sprintf("/proc/%d/ns/net", pid))
		if err != nil {
			done <- result{err: err}
			return
		}
		defer ns.Close()
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- result{err: fmt.Errorf("enter the network namespace of %d: %w", pid, err)}
			return
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		done <- result{c, err}
	}()
	r := <-done
	return r.c, r.err
}
