package peer

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// loopbackPair is a connection to a loopback listener: the listener's
// address, the accepted end and the client's end.
// mapped: the client is an IPv6 socket connected to the IPv4-mapped
// address, as a dual-stack client may be.
func loopbackPair(t testing.TB, mapped bool) (l net.Listener, accepted, client net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	port := l.Addr().(*net.TCPAddr).Port
	if mapped {
		client = dialMapped(t, port)
	} else if client, err = net.Dial("tcp4", "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	accepted, err = l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { accepted.Close() })
	return l, accepted, client
}

// dialMapped connects an AF_INET6 socket to ::ffff:127.0.0.1 (Go's dialer
// makes an IPv4 socket for that address).
func dialMapped(t testing.TB, port int) net.Conn {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET6, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	sa := &unix.SockaddrInet6{Port: port, Addr: [16]byte{10: 0xff, 11: 0xff, 12: 127, 15: 1}}
	if err := unix.Connect(fd, sa); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "mapped")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Both ways of the kernel name this process's uid as the client's, for an
// IPv4 client and for an IPv6 socket connected to the IPv4 address.
func TestLinuxLookupsNameTheClientsUID(t *testing.T) {
	for _, mapped := range []bool{false, true} {
		t.Run(map[bool]string{false: "ipv4", true: "ipv6 socket, ipv4-mapped"}[mapped], func(t *testing.T) {
			l, accepted, _ := loopbackPair(t, mapped)
			peer, ours := addrPort(accepted.RemoteAddr()), addrPort(accepted.LocalAddr())
			for name, look := range map[string]lookup{"sock_diag": diagPeer, "/proc/net/tcp": procPeer} {
				u, err := look(peer, ours)
				if err != nil || u.UID != os.Geteuid() {
					t.Errorf("%s: %v %v, want uid %d", name, u, err, os.Geteuid())
				}
			}
			_, how, err := newLookup(addrPort(l.Addr()), User{UID: os.Geteuid()})
			if err != nil || how != "sock_diag" {
				t.Errorf("newLookup: %q %v, want sock_diag", how, err)
			}
		})
	}
}

// A client that closed its socket (an orphan, or a TIME_WAIT stub whose uid
// the kernel says is 0) has no user: both ways say so rather than a uid,
// and so does a connection the kernel never had.
func TestLinuxLookupsKnowNoUserForAClosedPeer(t *testing.T) {
	_, accepted, client := loopbackPair(t, false)
	peer, ours := addrPort(accepted.RemoteAddr()), addrPort(accepted.LocalAddr())
	if _, err := client.Write([]byte("GET /json/new?https://example.com HTTP/1.1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	client.Close()
	for name, look := range map[string]lookup{"sock_diag": diagPeer, "/proc/net/tcp": procPeer} {
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			u, err := look(peer, ours)
			if errors.Is(err, ErrPeerUnknown) {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s: the closed peer reads as %v %v", name, u, err)
			}
		}
		nowhere := netip.AddrPortFrom(peer.Addr(), 1)
		if u, err := look(nowhere, ours); !errors.Is(err, ErrPeerUnknown) {
			t.Errorf("%s: a connection that never was reads as %v %v", name, u, err)
		}
	}
}
