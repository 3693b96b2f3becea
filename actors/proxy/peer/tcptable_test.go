package peer

import (
	"encoding/binary"
	"net/netip"
	"testing"
)

// tcpTableOf lays rows out as GetExtendedTcpTable (TCP_TABLE_OWNER_PID_ALL)
// does, IPv4 or IPv6.
func tcpTableOf(v6 bool, rows ...struct {
	local, remote netip.AddrPort
	pid           uint32
}) []byte {
	le, be := binary.LittleEndian, binary.BigEndian
	size := sizeofTCPRow
	if v6 {
		size = sizeofTCP6Row
	}
	b := make([]byte, 4+len(rows)*size)
	le.PutUint32(b, uint32(len(rows)))
	for i, r := range rows {
		row := b[4+i*size:]
		if v6 {
			l, rm := r.local.Addr().As16(), r.remote.Addr().As16()
			copy(row[0:], l[:])
			be.PutUint16(row[20:], r.local.Port())
			copy(row[24:], rm[:])
			be.PutUint16(row[44:], r.remote.Port())
			le.PutUint32(row[48:], 5) // MIB_TCP_STATE_ESTAB
			le.PutUint32(row[52:], r.pid)
			continue
		}
		le.PutUint32(row[0:], 5)
		l, rm := r.local.Addr().As4(), r.remote.Addr().As4()
		copy(row[4:], l[:])
		be.PutUint16(row[8:], r.local.Port())
		copy(row[12:], rm[:])
		be.PutUint16(row[16:], r.remote.Port())
		le.PutUint32(row[20:], r.pid)
	}
	return b
}

func TestTCPTableFindsTheOwningPid(t *testing.T) {
	ap := netip.MustParseAddrPort
	type row = struct {
		local, remote netip.AddrPort
		pid           uint32
	}
	v4 := tcpTableOf(false, row{ap("127.0.0.1:9222"), ap("0.0.0.0:0"), 100}, row{ap("127.0.0.1:50000"), ap("127.0.0.1:9222"), 200})
	v6 := tcpTableOf(true, row{ap("[::ffff:127.0.0.1]:50001"), ap("[::ffff:127.0.0.1]:9222"), 300})
	for _, c := range []struct {
		table         []byte
		v6            bool
		local, remote netip.AddrPort
		pid           uint32
	}{
		{v4, false, ap("127.0.0.1:9222"), ap("0.0.0.0:0"), 100},
		{v4, false, ap("127.0.0.1:50000"), ap("127.0.0.1:9222"), 200},
		{v6, true, ap("127.0.0.1:50001"), ap("127.0.0.1:9222"), 300}, // a dual-stack socket
	} {
		pid, found, err := findTCPRow(c.table, c.v6, c.local, c.remote)
		if err != nil || !found || pid != c.pid {
			t.Errorf("%s→%s: pid %d %t %v, want %d", c.local, c.remote, pid, found, err, c.pid)
		}
	}
	binary.LittleEndian.PutUint32(v4[4:], tcpStateListen) // the first row is the listener
	binary.LittleEndian.PutUint16(v4[4+16:], 4711)        // whose remote port means nothing
	if pid, found, err := findTCPListener(v4, false, ap("127.0.0.1:9222")); err != nil || !found || pid != 100 {
		t.Errorf("the listener: pid %d %t %v, want 100", pid, found, err)
	}
	if _, found, err := findTCPRow(v4, false, ap("127.0.0.1:9222"), ap("127.0.0.1:50000")); found || err != nil {
		t.Errorf("the other direction was found: %v", err)
	}
	if _, _, err := findTCPRow(v4[:30], false, ap("127.0.0.1:1"), ap("127.0.0.1:2")); err == nil {
		t.Error("a truncated table read without an error")
	}
}
