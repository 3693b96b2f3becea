package peer

import (
	"encoding/binary"
	"net/netip"
	"testing"
)

// pcbRecord is one record of a pcblist_n buffer: its kind and its bytes
// past the length and kind.
type pcbRecord struct {
	kind uint32
	size int
	set  func(b []byte)
}

// pcbBuffer lays records out as macOS does: an xinpgen, each record
// {length, kind, …} padded to 8 bytes, a closing xinpgen.
func pcbBuffer(recs ...pcbRecord) []byte {
	le := binary.LittleEndian
	b := make([]byte, sizeofXinpgen)
	le.PutUint32(b, sizeofXinpgen)
	for _, r := range recs {
		rec := make([]byte, roundUp8(r.size))
		le.PutUint32(rec, uint32(r.size))
		le.PutUint32(rec[4:], r.kind)
		if r.set != nil {
			r.set(rec)
		}
		b = append(b, rec...)
	}
	end := make([]byte, sizeofXinpgen)
	le.PutUint32(end, sizeofXinpgen)
	return append(b, end...)
}

// tcpSocket is the six records macOS lists per TCP socket, with the sizes
// of macOS 26 (xinpcb_n and xsocket_n grew over the years: only the
// offsets read here must hold).
func tcpSocket(vflag byte, local, remote netip.AddrPort, uid uint32) []pcbRecord {
	addr := func(dst []byte, a netip.Addr) {
		if vflag&inpIPv6 != 0 {
			v := netip.AddrFrom16(a.As16()).As16() // an IPv4 address as IPv4-mapped
			copy(dst, v[:])
			return
		}
		v := a.As4()
		copy(dst[12:], v[:])
	}
	return []pcbRecord{
		{kind: xsoInpcb, size: 104, set: func(b []byte) {
			binary.BigEndian.PutUint16(b[xiForeignPort:], remote.Port())
			binary.BigEndian.PutUint16(b[xiLocalPort:], local.Port())
			b[xiVflag] = vflag
			addr(b[xiForeignAddr:], remote.Addr())
			addr(b[xiLocalAddr:], local.Addr())
		}},
		{kind: xsoSocket, size: 104, set: func(b []byte) { binary.LittleEndian.PutUint32(b[xsoUID:], uid) }},
		{kind: 0x002, size: 32},  // XSO_RCVBUF
		{kind: 0x004, size: 32},  // XSO_SNDBUF
		{kind: 0x008, size: 72},  // XSO_STATS
		{kind: 0x020, size: 204}, // XSO_TCPCB: padded to 208
	}
}

func TestPCBListFindsASocketByBothEnds(t *testing.T) {
	ap := netip.MustParseAddrPort
	listener, server := ap("127.0.0.1:51563"), ap("127.0.0.1:51563")
	var recs []pcbRecord
	recs = append(recs, tcpSocket(inpIPv4, listener, ap("0.0.0.0:0"), 501)...)
	recs = append(recs, tcpSocket(inpIPv4, server, ap("127.0.0.1:58252"), 501)...)
	recs = append(recs, tcpSocket(inpIPv4, ap("127.0.0.1:58252"), server, 502)...)
	recs = append(recs, tcpSocket(inpIPv4|inpIPv6, ap("127.0.0.1:58253"), server, 503)...)
	recs = append(recs, tcpSocket(inpIPv6, ap("[::1]:47126"), ap("[::1]:53293"), 504)...)
	b := pcbBuffer(recs...)
	for _, c := range []struct {
		local, remote netip.AddrPort
		uid           int
	}{
		{listener, ap("0.0.0.0:0"), 501},
		{ap("127.0.0.1:58252"), server, 502},
		{ap("127.0.0.1:58253"), server, 503}, // a dual-stack socket, IPv4-mapped
		{ap("[::1]:47126"), ap("[::1]:53293"), 504},
	} {
		s, found, err := findPCB(b, c.local, c.remote)
		if err != nil || !found || s.uid != c.uid {
			t.Errorf("%s→%s: %+v %t %v, want uid %d", c.local, c.remote, s, found, err, c.uid)
		}
	}
	if s, found, err := findPCB(b, ap("127.0.0.1:1"), server); found || err != nil {
		t.Errorf("a socket not in the list: %+v %v", s, err)
	}
	if _, _, err := findPCB(b[:len(b)-40], ap("127.0.0.1:1"), server); err == nil {
		t.Error("a truncated list read without an error")
	}
	bad := append([]byte{}, b...)
	bad[0] = 28
	if _, _, err := findPCB(bad, listener, ap("0.0.0.0:0")); err == nil {
		t.Error("a list with another header read without an error")
	}
}
