package peer

import (
	"errors"
	"net"
	"sync"

	"github.com/rs/zerolog"
)

// Listener is a loopback listener that serves its owner only: Accept hands
// on the connections the owner's processes made and refuses the others.
type Listener struct {
	net.Listener
	owner  User
	lookup lookup // nil: this system cannot tell; every connection is accepted
	warn   *warnings
	// refusing holds a slot per refused connection still being answered
	// (answer): the listener owns those goroutines, and Close waits for them
	// by taking every slot.
	refusing  chan struct{}
	closeOnce sync.Once
}

// maxRefusing bounds the refused connections answered at once; past it, a
// refused connection is closed without an answer.
const maxRefusing = 8

// uncheckedOnce says once per process that the endpoints cannot tell who
// connects: every listener of a process meets the same kernel.
var uncheckedOnce sync.Once

// OwnerOnly wraps l, a loopback TCP listener, so that it serves only the
// user this process runs as (root too is refused unless it is the owner).
// Where the system cannot say who made a connection, every connection is
// accepted and log says so once.
func OwnerOnly(l net.Listener, log zerolog.Logger) *Listener {
	owned := &Listener{Listener: l, warn: newWarnings(log), refusing: make(chan struct{}, maxRefusing)}
	owner, err := currentUser()
	var how string
	if err == nil {
		owned.owner = owner
		owned.lookup, how, err = newLookup(addrPort(l.Addr()), owner)
	}
	if err != nil {
		if !errors.Is(err, ErrNoPeerIdentity) {
			err = errors.Join(ErrNoPeerIdentity, err)
		}
		uncheckedOnce.Do(func() {
			log.Warn().Err(err).Msg("cannot tell which user makes each connection to the endpoint on this system: every local user can use it")
		})
		return owned
	}
	log.Debug().Str("owner", owner.String()).Str("peerCheck", how).Msg("the endpoint serves its owner only")
	return owned
}

// Accept returns the next connection made by the owner. Another user's is
// refused here, before anything is read from it: nothing it sent reaches
// the endpoint, and no browser is launched for it.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || l.lookup == nil {
			return c, err
		}
		peer := addrPort(c.RemoteAddr())
		who, err := l.lookup(peer, addrPort(c.LocalAddr()))
		if err == nil && who.Same(l.owner) {
			return c, nil
		}
		l.warn.refused(l.owner, who, peer, err)
		l.refuse(c, refusal(l.owner, who, err))
	}
}

// Close closes the listener and waits for the refusals still being
// answered (each ends within refuseWait).
func (l *Listener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() {
		for range cap(l.refusing) {
			l.refusing <- struct{}{}
		}
	})
	return err
}
