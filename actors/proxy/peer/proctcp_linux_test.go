package peer

import (
	"encoding/binary"
	"net/netip"
	"strings"
	"testing"
)

// Rows as a little-endian Linux (amd64, arm64) writes them: a listener, an
// accepted connection and a TIME_WAIT stub (uid 0, inode 0) in tcp; in
// tcp6 an IPv6 listener and connection on ::1, and an IPv6 socket
// connected to 127.0.0.1 (IPv4-mapped), made by uid 65534.
const (
	procTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     
   1: 0100007F:C96B 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1548579 1 00000000ee1d90b3 100 0 0 10 0                   
   4: 0100007F:C96B 0100007F:E38C 01 00000000:00000000 00:00000000 00000000  1000        0 1548581 1 000000007f9dce48 20 0 0 10 -1                   
   5: 0100007F:E38D 0100007F:C96B 06 00000000:00000000 03:00000615 00000000     0        0 0 3 000000004f917e27
`
	procTCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:D02D 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1548582 1 00000000c6002be9 100 0 0 10 0
   1: 00000000000000000000000001000000:B816 00000000000000000000000001000000:D02D 01 00000000:00000000 00:00000000 00000000  1000        0 1548583 2 00000000ccf881d0 20 0 0 10 -1
   3: 0000000000000000FFFF00000100007F:E38C 0000000000000000FFFF00000100007F:C96B 01 00000000:00000000 00:00000000 00000000 65534        0 1548580 2 00000000f86fe3e2 20 0 0 10 -1
`
)

func TestProcTCPRowsAreFoundByBothEnds(t *testing.T) {
	ap := netip.MustParseAddrPort
	for _, c := range []struct {
		name, table   string
		local, remote netip.AddrPort
		want          procRow
	}{
		{"ipv4 listener", procTCP, ap("127.0.0.1:51563"), ap("0.0.0.0:0"),
			procRow{ap("127.0.0.1:51563"), ap("0.0.0.0:0"), tcpListen, 1000, 1548579}},
		{"ipv4 accepted", procTCP, ap("127.0.0.1:51563"), ap("127.0.0.1:58252"),
			procRow{ap("127.0.0.1:51563"), ap("127.0.0.1:58252"), 1, 1000, 1548581}},
		{"ipv4 time-wait", procTCP, ap("127.0.0.1:58253"), ap("127.0.0.1:51563"),
			procRow{ap("127.0.0.1:58253"), ap("127.0.0.1:51563"), tcpTimeWait, 0, 0}},
		{"ipv6 client", procTCP6, ap("[::1]:47126"), ap("[::1]:53293"),
			procRow{ap("[::1]:47126"), ap("[::1]:53293"), 1, 1000, 1548583}},
		{"ipv6 socket, ipv4-mapped", procTCP6, ap("127.0.0.1:58252"), ap("127.0.0.1:51563"),
			procRow{ap("127.0.0.1:58252"), ap("127.0.0.1:51563"), 1, 65534, 1548580}},
	} {
		row, found, err := findProcRow(strings.NewReader(c.table), c.local, c.remote, binary.LittleEndian)
		if err != nil || !found || row != c.want {
			t.Errorf("%s: %+v %t %v, want %+v", c.name, row, found, err, c.want)
		}
	}
	// The other direction of a connection, and a port in no row.
	for _, q := range [][2]netip.AddrPort{{ap("127.0.0.1:58252"), ap("127.0.0.1:51563")}, {ap("127.0.0.1:1"), ap("127.0.0.1:51563")}} {
		if row, found, err := findProcRow(strings.NewReader(procTCP), q[0], q[1], binary.LittleEndian); found || err != nil {
			t.Errorf("%s→%s in tcp: %+v %v, want none", q[0], q[1], row, err)
		}
	}
	if u, err := held(0, 0, tcpTimeWait); err != ErrPeerUnknown {
		t.Errorf("a TIME_WAIT stub passes as %v", u)
	}
}

// A big-endian host prints each address word in its own order.
func TestProcTCPAddressesFollowTheHostsByteOrder(t *testing.T) {
	for _, c := range []struct {
		field string
		order binary.ByteOrder
		want  string
	}{
		{"0100007F:1F90", binary.LittleEndian, "127.0.0.1:8080"},
		{"7F000001:1F90", binary.BigEndian, "127.0.0.1:8080"},
		{"00000000000000000000000001000000:0050", binary.LittleEndian, "[::1]:80"},
		{"00000000000000000000FFFF7F000001:0050", binary.BigEndian, "127.0.0.1:80"},
	} {
		got, err := parseProcAddr(c.field, c.order)
		if err != nil || got.String() != c.want {
			t.Errorf("%s: %v %v, want %s", c.field, got, err, c.want)
		}
	}
	for _, bad := range []string{"0100007F", "0100007F:XYZW", "01007F:1F90", "0100007G:1F90"} {
		if got, err := parseProcAddr(bad, binary.LittleEndian); err == nil {
			t.Errorf("%q parsed as %v", bad, got)
		}
	}
	if _, err := parseProcRow("   1: 0100007F:C96B 00000000:0000 0A", binary.LittleEndian); err == nil {
		t.Error("a short row parsed")
	}
}
