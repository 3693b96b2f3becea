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

// tcpStateListen is MIB_TCP_STATE_LISTEN.
const tcpStateListen = 2

// tcpRow is one row of a table, as far as the peer check reads it.
type tcpRow struct {
	state         uint32
	local, remote netip.AddrPort
	pid           uint32
}

// findTCPRow finds the owning pid of the socket local→remote in an IPv4
// (v6 false) or IPv6 table.
func findTCPRow(b []byte, v6 bool, local, remote netip.AddrPort) (pid uint32, found bool, err error) {
	return findTCP(b, v6, func(r tcpRow) bool { return r.local == local && r.remote == remote })
}

// findTCPListener finds the owning pid of the listener on local (a
// listener's remote address has no meaning in the table).
func findTCPListener(b []byte, v6 bool, local netip.AddrPort) (pid uint32, found bool, err error) {
	return findTCP(b, v6, func(r tcpRow) bool { return r.local == local && r.state == tcpStateListen })
}

func findTCP(b []byte, v6 bool, match func(tcpRow) bool) (pid uint32, found bool, err error) {
	le, be := binary.LittleEndian, binary.BigEndian
	if len(b) < 4 {
		return 0, false, fmt.Errorf("a TCP table of %d bytes", len(b))
	}
	size := sizeofTCPRow
	if v6 {
		size = sizeofTCP6Row
	}
	n := int(le.Uint32(b))
	if n < 0 || n > (len(b)-4)/size {
		return 0, false, fmt.Errorf("a TCP table of %d rows in %d bytes", n, len(b))
	}
	for i := range n {
		r := b[4+i*size : 4+(i+1)*size]
		var row tcpRow
		if v6 {
			row = tcpRow{
				local:  netip.AddrPortFrom(netip.AddrFrom16([16]byte(r[0:])).Unmap(), be.Uint16(r[20:])),
				remote: netip.AddrPortFrom(netip.AddrFrom16([16]byte(r[24:])).Unmap(), be.Uint16(r[44:])),
				state:  le.Uint32(r[48:]),
				pid:    le.Uint32(r[52:]),
			}
		} else {
			row = tcpRow{
				state:  le.Uint32(r[0:]),
				local:  netip.AddrPortFrom(netip.AddrFrom4([4]byte(r[4:])), be.Uint16(r[8:])),
				remote: netip.AddrPortFrom(netip.AddrFrom4([4]byte(r[12:])), be.Uint16(r[16:])),
				pid:    le.Uint32(r[20:]),
			}
		}
		if match(row) {
			return row.pid, true, nil
		}
	}
	return 0, false, nil
}
