package peer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"os"
)

// currentUser is the user this process runs as: the uid its sockets carry.
func currentUser() (User, error) { return User{UID: os.Geteuid()}, nil }

// newLookup picks how this kernel tells who made a connection: sock_diag,
// else /proc/net/tcp (a kernel without inet_diag, some sandboxes). Each is
// first asked about the listener itself and kept only when it names the
// owner as the listener's: a way that cannot see our own socket would
// refuse everyone.
func newLookup(listen netip.AddrPort, owner User) (lookup, string, error) {
	unbound := netip.AddrPortFrom(netip.IPv4Unspecified(), 0)
	if listen.Addr().Is6() {
		unbound = netip.AddrPortFrom(netip.IPv6Unspecified(), 0)
	}
	s, diagErr := sockDiag(listen, unbound)
	if diagErr == nil && s.state == tcpListen && s.uid == owner.UID {
		return diagPeer, "sock_diag", nil
	}
	if diagErr == nil {
		diagErr = fmt.Errorf("it says the listener is in state %d of uid %d", s.state, s.uid)
	}
	row, found, procErr := procFind(listen, unbound)
	if found && row.state == tcpListen && row.uid == owner.UID {
		return procPeer, "/proc/net/tcp", nil
	}
	if procErr == nil {
		procErr = fmt.Errorf("the listener is not in it as %s's (found: %t)", owner, found)
	}
	return nil, "", fmt.Errorf("%w: sock_diag: %w; /proc/net/tcp: %w", ErrNoPeerIdentity, diagErr, procErr)
}

// diagPeer is who holds the socket at peer connected to ours, by sock_diag.
func diagPeer(peer, ours netip.AddrPort) (User, error) {
	s, err := sockDiag(peer, ours)
	if err != nil {
		return User{UID: -1}, err
	}
	if s.local != peer || s.remote != ours {
		return User{UID: -1}, fmt.Errorf("sock_diag answered about %s→%s, not %s→%s", s.local, s.remote, peer, ours)
	}
	return held(s.uid, uint64(s.inode), s.state)
}

// procPeer is who holds the socket at peer connected to ours, by
// /proc/net/tcp and, for an IPv6 socket connected to an IPv4 address, tcp6.
func procPeer(peer, ours netip.AddrPort) (User, error) {
	row, found, err := procFind(peer, ours)
	if err != nil {
		return User{UID: -1}, err
	}
	if !found {
		return User{UID: -1}, ErrPeerUnknown
	}
	return held(row.uid, row.inode, row.state)
}

// held is the owner of a socket a process still holds. The kernel keeps no
// owner for a socket in TIME_WAIT (nor for one closed in FIN_WAIT2, turned
// into such a stub) and says uid 0: a peer that wrote a request and closed
// at once would otherwise pass as root.
func held(uid int, inode uint64, state uint8) (User, error) {
	if inode == 0 || state == tcpTimeWait {
		return User{UID: -1}, ErrPeerUnknown
	}
	return User{UID: uid}, nil
}

// procFind looks for local→remote in /proc/net/tcp, then in tcp6.
func procFind(local, remote netip.AddrPort) (procRow, bool, error) {
	var errs []error
	for _, path := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		row, found, err := findProcRow(f, local, remote, binary.NativeEndian)
		f.Close()
		if found || err != nil {
			return row, found, err
		}
	}
	if len(errs) == 2 {
		return procRow{}, false, errors.Join(errs...)
	}
	return procRow{}, false, nil
}
