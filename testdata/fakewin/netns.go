package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// netnsFlag runs a program inside the fresh network namespace this process
// was started in, once its loopback is up.
const netnsFlag = "--fakewin-netns"

// isolated is the command that runs exe in a network namespace of its own
// (FAKEWIN_NAT=netns; the host adds CLONE_NEWNET): nothing outside reaches
// its 127.0.0.1, as WSL does not reach Windows' under NAT networking. It
// execs the program, which so keeps the command's pid.
func isolated(exe string, args []string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return exec.Command(self, append([]string{netnsFlag, exe}, args...)...)
}

// inNetns brings the namespace's loopback up and execs args.
func inNetns(args []string) int {
	if err := loopbackUp(); err != nil {
		fmt.Fprintf(os.Stderr, "fake Windows: bring up the loopback of a new network namespace: %v\n", err)
		return 1
	}
	err := syscall.Exec(args[0], args, os.Environ())
	fmt.Fprintf(os.Stderr, "fake Windows: %v\n", err)
	return 1
}

// loopbackUp sets IFF_UP on lo (a new network namespace has it down).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
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
