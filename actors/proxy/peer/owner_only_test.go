package peer

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// ownerOnlyWith is a Listener whose lookup the test decides.
func ownerOnlyWith(t *testing.T, owner User, look lookup, log zerolog.Logger) *Listener {
	t.Helper()
	inner, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Listener{Listener: inner, owner: owner, lookup: look, warn: newWarnings(log), refusing: make(chan struct{}, maxRefusing)}
	t.Cleanup(func() { l.Close() })
	return l
}

// A peer whose user cannot be told is refused too, with why; three
// refusals in a row make one warning line, and the next one counts them.
func TestOwnerOnlyRefusesAPeerOfUnknownUserAndWarnsOnce(t *testing.T) {
	var logs actortest.SyncBuffer
	l := ownerOnlyWith(t, User{UID: 1000}, func(peer, ours netip.AddrPort) (User, error) {
		return User{UID: -1}, ErrPeerUnknown
	}, zerolog.New(&logs))
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	for range 3 {
		c, err := net.Dial("tcp4", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprint(c, "GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		answer, err := io.ReadAll(c)
		c.Close()
		if err != nil || !strings.HasPrefix(string(answer), "HTTP/1.1 403 Forbidden\r\n") ||
			!strings.HasSuffix(string(answer), "\r\n\r\ncdpvisor: refused: this endpoint serves uid 1000 only, and no process holds the other end of the connection any more, so its user cannot be told\n") {
			t.Fatalf("answer %q %v", answer, err)
		}
	}
	if n := strings.Count(logs.String(), `"level":"warn"`); n != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", n, logs.String())
	}
	l.warn.next.Store(0) // the period is over
	l.warn.refused(User{UID: 1000}, User{UID: 7}, netip.MustParseAddrPort("127.0.0.1:5"), nil)
	if !strings.Contains(logs.String(), `"peerUid":7`) || !strings.Contains(logs.String(), `"alsoRefused":2`) {
		t.Fatalf("the next warning does not count the refusals it stood for:\n%s", logs.String())
	}
	l.Close()
	if c, ok := <-accepted; ok {
		t.Fatalf("a refused connection was accepted: %v", c.RemoteAddr())
	}
}

// The owner's connection is handed on untouched, and a system that cannot
// tell (no lookup) accepts everyone.
func TestOwnerOnlyHandsOnTheOwnersConnections(t *testing.T) {
	for _, look := range []lookup{
		func(peer, ours netip.AddrPort) (User, error) { return User{UID: 1000}, nil },
		nil,
	} {
		l := ownerOnlyWith(t, User{UID: 1000}, look, zerolog.Nop())
		c, err := net.Dial("tcp4", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		a, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if a.RemoteAddr().String() != c.LocalAddr().String() {
			t.Fatalf("accepted %v, dialled from %v", a.RemoteAddr(), c.LocalAddr())
		}
		a.Close()
	}
}
