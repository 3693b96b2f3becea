package peer

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The kernel's sock_diag ABI (linux/inet_diag.h, linux/sock_diag.h): not in
// x/sys/unix, stable since Linux 3.3.
const (
	sockDiagByFamily = 20 // SOCK_DIAG_BY_FAMILY
	sizeofDiagReq    = 56 // struct inet_diag_req_v2
	sizeofDiagMsg    = 72 // struct inet_diag_msg
	tcpTimeWait      = 6  // TCP_TIME_WAIT
	tcpListen        = 10 // TCP_LISTEN
	diagWait         = time.Second
)

// diagSocket is what sock_diag says of one TCP socket.
type diagSocket struct {
	local, remote netip.AddrPort
	state         uint8
	uid           int
	inode         uint32 // 0: no process holds it (closed, or a TIME_WAIT stub)
}

var diagSeq atomic.Uint32

// sockDiag asks the kernel for the one TCP socket whose own address is local
// and whose far end is remote. It is an exact lookup (the kernel finds the
// socket in its connection hash, as it does for a packet), so its cost does
// not grow with the number of sockets on the machine; /proc/net/tcp lists
// them all. ErrPeerUnknown: no such socket.
func sockDiag(local, remote netip.AddrPort) (diagSocket, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return diagSocket{}, fmt.Errorf("open a sock_diag socket: %w", err)
	}
	defer unix.Close(fd)
	// Never hang the accept loop on a kernel that does not answer.
	tv := unix.NsecToTimeval(int64(diagWait))
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return diagSocket{}, fmt.Errorf("sock_diag: %w", err)
	}
	seq := diagSeq.Add(1)
	if err := unix.Sendto(fd, diagRequest(local, remote, seq), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return diagSocket{}, fmt.Errorf("sock_diag request: %w", err)
	}
	buf := make([]byte, 4096)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return diagSocket{}, fmt.Errorf("sock_diag answer: %w", err)
		}
		s, done, err := parseDiagAnswer(buf[:n], seq)
		if done || err != nil {
			return s, err
		}
	}
}

// diagRequest is a netlink message asking for one socket (no NLM_F_DUMP:
// the kernel's exact lookup).
func diagRequest(local, remote netip.AddrPort, seq uint32) []byte {
	b := make([]byte, unix.SizeofNlMsghdr+sizeofDiagReq)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], uint32(len(b)))
	ne.PutUint16(b[4:], sockDiagByFamily)
	ne.PutUint16(b[6:], unix.NLM_F_REQUEST)
	ne.PutUint32(b[8:], seq)
	r := b[unix.SizeofNlMsghdr:]
	r[0] = unix.AF_INET
	if local.Addr().Is6() {
		r[0] = unix.AF_INET6
	}
	r[1] = unix.IPPROTO_TCP
	ne.PutUint32(r[4:], ^uint32(0)) // every state
	binary.BigEndian.PutUint16(r[8:], local.Port())
	binary.BigEndian.PutUint16(r[10:], remote.Port())
	putAddr(r[12:28], local.Addr())
	putAddr(r[28:44], remote.Addr())
	ne.PutUint32(r[48:], ^uint32(0)) // INET_DIAG_NOCOOKIE
	ne.PutUint32(r[52:], ^uint32(0))
	return b
}

func putAddr(dst []byte, a netip.Addr) {
	if a.Is4() {
		v := a.As4()
		copy(dst, v[:])
		return
	}
	v := a.As16()
	copy(dst, v[:])
}

// parseDiagAnswer reads the kernel's answer to request seq: the socket, or
// ErrPeerUnknown when the kernel has none (ENOENT). done is false for a
// message that is not the answer (another sequence number).
func parseDiagAnswer(b []byte, seq uint32) (s diagSocket, done bool, err error) {
	ne := binary.NativeEndian
	for len(b) >= unix.SizeofNlMsghdr {
		n := int(ne.Uint32(b))
		if n < unix.SizeofNlMsghdr || n > len(b) {
			return diagSocket{}, true, fmt.Errorf("sock_diag: a message of %d bytes in %d", n, len(b))
		}
		typ, mseq, data := ne.Uint16(b[4:]), ne.Uint32(b[8:]), b[unix.SizeofNlMsghdr:n]
		b = b[min(len(b), (n+unix.NLMSG_ALIGNTO-1)&^(unix.NLMSG_ALIGNTO-1)):]
		if mseq != seq {
			continue
		}
		switch typ {
		case unix.NLMSG_ERROR:
			if len(data) < 4 {
				return diagSocket{}, true, fmt.Errorf("sock_diag: a short error message")
			}
			errno := unix.Errno(-int32(ne.Uint32(data)))
			if errno == unix.ENOENT {
				return diagSocket{}, true, ErrPeerUnknown
			}
			return diagSocket{}, true, fmt.Errorf("sock_diag: %w", errno)
		case sockDiagByFamily:
			s, err := parseDiagMsg(data)
			return s, true, err
		}
	}
	return diagSocket{}, false, nil
}

// parseDiagMsg reads a struct inet_diag_msg.
func parseDiagMsg(d []byte) (diagSocket, error) {
	if len(d) < sizeofDiagMsg {
		return diagSocket{}, fmt.Errorf("sock_diag: a message of %d bytes, want %d", len(d), sizeofDiagMsg)
	}
	ne := binary.NativeEndian
	addr := func(b []byte) netip.Addr {
		if d[0] == unix.AF_INET {
			return netip.AddrFrom4([4]byte(b[:4]))
		}
		return netip.AddrFrom16([16]byte(b[:16])).Unmap()
	}
	return diagSocket{
		local:  netip.AddrPortFrom(addr(d[8:24]), binary.BigEndian.Uint16(d[4:])),
		remote: netip.AddrPortFrom(addr(d[24:40]), binary.BigEndian.Uint16(d[6:])),
		state:  d[1],
		uid:    int(ne.Uint32(d[64:])),
		inode:  ne.Uint32(d[68:]),
	}, nil
}
