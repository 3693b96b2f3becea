package peer

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procGetExtendedTCPTable = windows.NewLazySystemDLL("iphlpapi.dll").NewProc("GetExtendedTcpTable")

const tcpTableOwnerPIDAll = 5 // TCP_TABLE_OWNER_PID_ALL

// currentUser is the user of this process's token.
func currentUser() (User, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return User{}, fmt.Errorf("the user of this process: %w", err)
	}
	return User{UID: -1, SID: u.User.Sid.String()}, nil
}

// newLookup checks that the TCP table names this process as the
// listener's before trusting it.
func newLookup(listen netip.AddrPort, owner User) (lookup, string, error) {
	b, err := tcpTable(listen.Addr().Is6())
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNoPeerIdentity, err)
	}
	pid, found, err := findTCPListener(b, listen.Addr().Is6(), listen)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrNoPeerIdentity, err)
	}
	if !found || int(pid) != os.Getpid() {
		return nil, "", fmt.Errorf("%w: GetExtendedTcpTable does not list the listener %s as this process's (found: %t)", ErrNoPeerIdentity, listen, found)
	}
	return tablePeer, "GetExtendedTcpTable", nil
}

// tablePeer is the user of the process that holds the socket at peer
// connected to ours: the table's owning pid, then that process's token. A
// process whose token this one may not read (another user's, or one
// running elevated) is refused, since its user cannot be told.
func tablePeer(peer, ours netip.AddrPort) (User, error) {
	pid, found, err := tcpOwner(peer, ours)
	switch {
	case err != nil:
		return User{UID: -1}, err
	case !found || pid == 0:
		return User{UID: -1}, ErrPeerUnknown
	case int(pid) == os.Getpid():
		return currentUser()
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return User{UID: -1, PID: int(pid)}, fmt.Errorf("open the process %d that made the connection: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	var tok windows.Token
	if err := windows.OpenProcessToken(h, windows.TOKEN_QUERY, &tok); err != nil {
		return User{UID: -1, PID: int(pid)}, fmt.Errorf("read the user of process %d: %w", pid, err)
	}
	defer tok.Close()
	u, err := tok.GetTokenUser()
	if err != nil {
		return User{UID: -1, PID: int(pid)}, fmt.Errorf("read the user of process %d: %w", pid, err)
	}
	return User{UID: -1, SID: u.User.Sid.String(), PID: int(pid)}, nil
}

// tcpOwner is the pid owning local→remote, in the IPv4 table, then the
// IPv6 one (a dual-stack socket connected to an IPv4 address).
func tcpOwner(local, remote netip.AddrPort) (uint32, bool, error) {
	for _, v6 := range []bool{false, true} {
		b, err := tcpTable(v6)
		if err != nil {
			return 0, false, err
		}
		if pid, found, err := findTCPRow(b, v6, local, remote); found || err != nil {
			return pid, found, err
		}
	}
	return 0, false, nil
}

// tcpTable reads the IPv4 or IPv6 TCP table with owning pids; it can grow
// between the call that sizes it and the one that reads it.
func tcpTable(v6 bool) ([]byte, error) {
	family := windows.AF_INET
	if v6 {
		family = windows.AF_INET6
	}
	if err := procGetExtendedTCPTable.Find(); err != nil {
		return nil, err
	}
	size := uint32(16 << 10)
	for range 5 {
		b := make([]byte, size)
		r, _, _ := procGetExtendedTCPTable.Call(uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&size)), 0, uintptr(family), tcpTableOwnerPIDAll, 0)
		switch err := windows.Errno(r); {
		case r == 0:
			return b, nil
		case errors.Is(err, windows.ERROR_INSUFFICIENT_BUFFER):
			size += 4 << 10 // and the rows made meanwhile
		default:
			return nil, fmt.Errorf("GetExtendedTcpTable: %w", err)
		}
	}
	return nil, errors.New("GetExtendedTcpTable: the table kept growing")
}
