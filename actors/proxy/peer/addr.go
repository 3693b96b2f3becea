package peer

import (
	"net"
	"net/netip"
)

// addrPort is a TCP address with an IPv4-mapped IPv6 address made IPv4,
// as the kernels' tables compare them; the zero AddrPort for any other.
func addrPort(a net.Addr) netip.AddrPort {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}
	}
	ap := t.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
}
