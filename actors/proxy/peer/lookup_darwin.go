package peer

import (
	"errors"
	"fmt"
	"net/netip"
	"os"

	"golang.org/x/sys/unix"
)

// currentUser is the user this process runs as: the uid its sockets carry.
func currentUser() (User, error) { return User{UID: os.Geteuid()}, nil }

// newLookup checks that the TCP table names the owner as the listener's
// before trusting it: macOS gives some processes an empty table (reported
// of ad-hoc signed binaries), and a table without our own socket would
// refuse everyone.
func newLookup(listen netip.AddrPort, owner User) (lookup, string, error) {
	b, err := pcbList()
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNoPeerIdentity, err)
	}
	s, found, err := findPCB(b, listen, netip.AddrPortFrom(netip.IPv4Unspecified(), 0))
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNoPeerIdentity, err)
	}
	if !found || s.uid != owner.UID {
		return nil, "", fmt.Errorf("%w: net.inet.tcp.pcblist_n does not list the listener %s as %s's (found: %t)", ErrNoPeerIdentity, listen, owner, found)
	}
	return pcbPeer, "net.inet.tcp.pcblist_n", nil
}

// pcbPeer is who holds the socket at peer connected to ours, by the TCP
// table (every socket of the machine: a few hundred microseconds).
func pcbPeer(peer, ours netip.AddrPort) (User, error) {
	b, err := pcbList()
	if err != nil {
		return User{UID: -1}, err
	}
	s, found, err := findPCB(b, peer, ours)
	switch {
	case err != nil:
		return User{UID: -1}, err
	case !found || s.uid < 0:
		return User{UID: -1}, ErrPeerUnknown
	}
	return User{UID: s.uid}, nil
}

// pcbList reads the TCP table; it can grow between the two sysctl calls
// SysctlRaw makes (ENOMEM), so it is read again then.
func pcbList() ([]byte, error) {
	var err error
	for range 3 {
		var b []byte
		if b, err = unix.SysctlRaw("net.inet.tcp.pcblist_n"); err == nil {
			return b, nil
		}
		if !errors.Is(err, unix.ENOMEM) {
			break
		}
	}
	return nil, fmt.Errorf("sysctl net.inet.tcp.pcblist_n: %w", err)
}
