package peer

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
)

// procRow is one row of /proc/net/tcp or /proc/net/tcp6, as far as the
// peer check reads it.
type procRow struct {
	local, remote netip.AddrPort
	state         uint8
	uid           int
	inode         uint64 // 0: no process holds the socket
}

// findProcRow scans a /proc/net/tcp or tcp6 table for the socket whose own
// address is local and whose far end is remote. Only the rows that carry
// local's port are parsed: on a busy machine the table is long.
func findProcRow(r io.Reader, local, remote netip.AddrPort, order binary.ByteOrder) (procRow, bool, error) {
	port := fmt.Sprintf(":%04X ", local.Port())
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 16<<10), 64<<10)
	for first := true; sc.Scan(); first = false {
		line := sc.Text()
		if first || !strings.Contains(line, port) {
			continue // the header, or another port's row
		}
		row, err := parseProcRow(line, order)
		if err != nil {
			return procRow{}, false, err
		}
		if row.local == local && row.remote == remote {
			return row, true, nil
		}
	}
	return procRow{}, false, sc.Err()
}

// parseProcRow parses one row:
//
//	sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
//	0: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000 1000 0 12345 …
//
// The kernel prints each 32-bit word of an address as a number in the
// byte order of its host (order); ports are plain hex numbers.
func parseProcRow(line string, order binary.ByteOrder) (procRow, error) {
	f := strings.Fields(line)
	if len(f) < 10 {
		return procRow{}, fmt.Errorf("a /proc/net/tcp row of %d fields: %q", len(f), line)
	}
	local, err := parseProcAddr(f[1], order)
	if err != nil {
		return procRow{}, err
	}
	remote, err := parseProcAddr(f[2], order)
	if err != nil {
		return procRow{}, err
	}
	state, err := strconv.ParseUint(f[3], 16, 8)
	if err != nil {
		return procRow{}, fmt.Errorf("a /proc/net/tcp state %q: %w", f[3], err)
	}
	uid, err := strconv.ParseUint(f[7], 10, 32)
	if err != nil {
		return procRow{}, fmt.Errorf("a /proc/net/tcp uid %q: %w", f[7], err)
	}
	inode, err := strconv.ParseUint(f[9], 10, 64)
	if err != nil {
		return procRow{}, fmt.Errorf("a /proc/net/tcp inode %q: %w", f[9], err)
	}
	return procRow{local: local, remote: remote, state: uint8(state), uid: int(uid), inode: inode}, nil
}

// parseProcAddr parses ADDR:PORT, ADDR being 8 hex digits (IPv4) or 32
// (IPv6, four words); an IPv4-mapped IPv6 address is returned as IPv4.
func parseProcAddr(s string, order binary.ByteOrder) (netip.AddrPort, error) {
	a, p, ok := strings.Cut(s, ":")
	if !ok || (len(a) != 8 && len(a) != 32) {
		return netip.AddrPort{}, fmt.Errorf("a /proc/net/tcp address %q", s)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("a /proc/net/tcp port %q: %w", s, err)
	}
	raw, err := hex.DecodeString(a)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("a /proc/net/tcp address %q: %w", s, err)
	}
	var b [16]byte
	for i := 0; i < len(raw); i += 4 { // each word back to the bytes it was in memory
		order.PutUint32(b[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	if len(raw) == 4 {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte(b[:4])), uint16(port)), nil
	}
	return netip.AddrPortFrom(netip.AddrFrom16(b).Unmap(), uint16(port)), nil
}
