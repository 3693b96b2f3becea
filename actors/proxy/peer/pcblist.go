package peer

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// macOS's net.inet.tcp.pcblist_n: a struct xinpgen, then per socket a group
// of records, each {u32 length, u32 kind, …} padded to 8 bytes, then a
// closing xinpgen. The records' structs (xnu: bsd/netinet/in_pcb.h,
// bsd/sys/socketvar.h) are declared under #pragma pack(4), which sets the
// offsets below; macOS is little-endian on arm64 and amd64, and ports and
// addresses are in network order.
const (
	sizeofXinpgen = 24
	xsoSocket     = 0x001 // struct xsocket_n
	xsoInpcb      = 0x010 // struct xinpcb_n: starts a socket's group
	inpIPv4       = 0x1
	inpIPv6       = 0x2
	// struct xinpcb_n
	xiForeignPort = 16
	xiLocalPort   = 18
	xiVflag       = 44
	xiForeignAddr = 48 // an in6_addr, or an in_addr_4in6 (the IPv4 address 12 bytes in)
	xiLocalAddr   = 64
	sizeofXinpcbN = xiLocalAddr + 16
	// struct xsocket_n
	xsoUID        = 64
	sizeofXsocket = xsoUID + 4
)

// pcbSocket is one TCP socket of the list.
type pcbSocket struct {
	local, remote netip.AddrPort
	uid           int // -1: its group had no xsocket_n
}

// findPCB walks a net.inet.tcp.pcblist_n buffer for the socket whose own
// address is local and whose far end is remote.
func findPCB(b []byte, local, remote netip.AddrPort) (pcbSocket, bool, error) {
	le := binary.LittleEndian
	if len(b) < sizeofXinpgen || le.Uint32(b) != sizeofXinpgen {
		return pcbSocket{}, false, fmt.Errorf("net.inet.tcp.pcblist_n: not the xinpgen header this build reads (%d bytes)", len(b))
	}
	var cur pcbSocket
	var in bool // cur is a socket being read
	for off := roundUp8(sizeofXinpgen); off+8 <= len(b); {
		n, kind := int(le.Uint32(b[off:])), le.Uint32(b[off+4:])
		if n <= sizeofXinpgen { // the closing xinpgen
			break
		}
		if off+n > len(b) {
			return pcbSocket{}, false, fmt.Errorf("net.inet.tcp.pcblist_n: a record of %d bytes at %d of %d", n, off, len(b))
		}
		rec := b[off : off+n]
		off += roundUp8(n)
		switch kind {
		case xsoInpcb:
			if in && cur.local == local && cur.remote == remote {
				return cur, true, nil
			}
			cur, in = readXinpcb(rec)
		case xsoSocket:
			if in && len(rec) >= sizeofXsocket {
				cur.uid = int(le.Uint32(rec[xsoUID:]))
			}
		}
	}
	if in && cur.local == local && cur.remote == remote {
		return cur, true, nil
	}
	return pcbSocket{}, false, nil
}

// readXinpcb reads the addresses of a struct xinpcb_n; false: not an IP
// socket this reads.
func readXinpcb(rec []byte) (pcbSocket, bool) {
	if len(rec) < sizeofXinpcbN {
		return pcbSocket{}, false
	}
	addr := func(at int) netip.Addr {
		if rec[xiVflag]&inpIPv6 != 0 { // a dual-stack socket has both flags
			return netip.AddrFrom16([16]byte(rec[at:])).Unmap()
		}
		return netip.AddrFrom4([4]byte(rec[at+12:]))
	}
	if rec[xiVflag]&(inpIPv4|inpIPv6) == 0 {
		return pcbSocket{}, false
	}
	be := binary.BigEndian
	return pcbSocket{
		local:  netip.AddrPortFrom(addr(xiLocalAddr), be.Uint16(rec[xiLocalPort:])),
		remote: netip.AddrPortFrom(addr(xiForeignAddr), be.Uint16(rec[xiForeignPort:])),
		uid:    -1,
	}, true
}

func roundUp8(n int) int { return (n + 7) &^ 7 }
