package peer

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// Windows's GetExtendedTcpTable with TCP_TABLE_OWNER_PID_ALL: a DWORD count,
// then rows of DWORDs (MIB_TCPROW_OWNER_PID: state, local address, local
// port, remote address, remote port, owning pid) or, for IPv6,
// MIB_TCP6ROW_OWNER_PID (local address[16], scope, port, remote
// address[16], scope, port, state, owning pid). Addresses are in network
// order; a port is in network order in the low 16 bits of its DWORD.
const (
	sizeofTCPRow  = 24
	sizeofTCP6Row = 56
)

// findTCPRow finds the owning pid of the socket local→remote in an IPv4
// (v6 false) or IPv6 table.
func findTCPRow(b []byte, v6 bool, local, remote netip.AddrPort) (pid uint32, found bool, err error) {
	le, be := binary.LittleEndian, binary.BigEndian
	if len(b) < 4 {
		return 0, false, fmt.Errorf("a TCP table of %d bytes", len(b))
	}
	size := sizeofTCPRow
	if v6 {
		size = sizeofTCP6Row
	}
	n := int(le.Uint32(b))
	if 4+n*size > len(b) {
		return 0, false, fmt.Errorf("a TCP table of %d rows in %d bytes", n, len(b))
	}
	for i := range n {
		r := b[4+i*size : 4+(i+1)*size]
		var l, rm netip.AddrPort
		if v6 {
			l = netip.AddrPortFrom(netip.AddrFrom16([16]byte(r[0:])).Unmap(), be.Uint16(r[20:]))
			rm = netip.AddrPortFrom(netip.AddrFrom16([16]byte(r[24:])).Unmap(), be.Uint16(r[44:]))
			pid = le.Uint32(r[52:])
		} else {
			l = netip.AddrPortFrom(netip.AddrFrom4([4]byte(r[4:])), be.Uint16(r[8:]))
			rm = netip.AddrPortFrom(netip.AddrFrom4([4]byte(r[12:])), be.Uint16(r[16:]))
			pid = le.Uint32(r[20:])
		}
		if l == local && rm == remote {
			return pid, true, nil
		}
	}
	return 0, false, nil
}
