package transport

import (
	"net"
	"syscall"
	"testing"
)

// Both ends of a relay send each CDP message at once: TCP_NODELAY is set
// on the socket cdpvisor accepts and on the one it dials.
func TestWSConnsHaveNagleOff(t *testing.T) {
	client, server := wsPair(t, 0)
	for name, c := range map[string]*WSConn{"dialed": client, "accepted": server} {
		tc, ok := c.c.NetConn().(*net.TCPConn)
		if !ok {
			t.Fatalf("%s: %T is not TCP", name, c.c.NetConn())
		}
		raw, err := tc.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var v int
		var gerr error
		if err := raw.Control(func(fd uintptr) {
			v, gerr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_NODELAY)
		}); err != nil || gerr != nil {
			t.Fatal(err, gerr)
		}
		if v == 0 {
			t.Errorf("%s socket has TCP_NODELAY off", name)
		}
	}
}
