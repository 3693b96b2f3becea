package peer

import (
	"fmt"
	"net"
	"testing"

	"github.com/rs/zerolog"
)

// The lookup of one connection's peer, on a machine with few sockets and
// with `idle` more loopback connections (two sockets each): sock_diag's
// cost stays flat, /proc/net/tcp's grows with the table.
//
//	go test -run - -bench Lookup ./actors/proxy/peer
func BenchmarkLookup(b *testing.B) {
	for _, idle := range []int{0, 1000, 5000} {
		_, accepted, _ := loopbackPair(b, false)
		peer, ours := addrPort(accepted.RemoteAddr()), addrPort(accepted.LocalAddr())
		idleConnections(b, idle)
		for _, c := range []struct {
			name string
			look lookup
		}{{"sock_diag", diagPeer}, {"proc_net_tcp", procPeer}} {
			b.Run(fmt.Sprintf("%s/idle=%d", c.name, idle), func(b *testing.B) {
				for b.Loop() {
					if _, err := c.look(peer, ours); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// Dial and accept of one loopback connection, through a bare listener and
// through OwnerOnly: the difference is what the check adds per connection.
//
//	go test -run - -bench Accept ./actors/proxy/peer
func BenchmarkAccept(b *testing.B) {
	for _, checked := range []bool{false, true} {
		b.Run(map[bool]string{false: "bare", true: "owner_only"}[checked], func(b *testing.B) {
			inner, err := net.Listen("tcp4", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			var l net.Listener = inner
			if checked {
				l = OwnerOnly(inner, zerolog.Nop())
			}
			defer l.Close()
			for b.Loop() {
				c, err := net.Dial("tcp4", l.Addr().String())
				if err != nil {
					b.Fatal(err)
				}
				a, err := l.Accept()
				if err != nil {
					b.Fatal(err)
				}
				a.Close()
				c.Close()
			}
		})
	}
}

// idleConnections opens n loopback connections kept until the benchmark ends.
func idleConnections(b *testing.B, n int) {
	if n == 0 {
		return
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	for range n {
		c, err := net.Dial("tcp4", l.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		a, err := l.Accept()
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close(); a.Close() })
	}
}
