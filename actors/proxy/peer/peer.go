// Package peer tells who is at the other end of a loopback connection, as
// the kernel says it (Linux: sock_diag, else /proc/net/tcp; macOS: the TCP
// table sysctl; Windows: the TCP table's owning process and its token), and
// wraps the endpoint's listener so that it serves its owner only: a
// connection made by another user is refused before anything is read from it.
package peer

import (
	"errors"
	"fmt"
)

// User is who made a socket, as the kernel names it: a uid on Linux and
// macOS, a security identifier on Windows.
type User struct {
	UID int    // -1 on Windows
	SID string // Windows only
	PID int    // the process holding the socket, where the system says it (Windows)
}

// Same reports whether u and o are the same user (the PID does not count).
func (u User) Same(o User) bool {
	if u.SID != "" || o.SID != "" {
		return u.SID == o.SID
	}
	return u.UID == o.UID
}

func (u User) String() string {
	switch {
	case u.SID != "" && u.PID > 0:
		return fmt.Sprintf("user %s (pid %d)", u.SID, u.PID)
	case u.SID != "":
		return "user " + u.SID
	}
	return fmt.Sprintf("uid %d", u.UID)
}

var (
	// ErrNoPeerIdentity is a system that gives no way to tell who made a
	// connection: the listener accepts every local connection, and says so
	// once when it is made.
	ErrNoPeerIdentity = errors.New("this system does not say who made a loopback connection")
	// ErrPeerUnknown is a connection whose far end the kernel no longer
	// knows or no process holds (it was closed, or is in TIME_WAIT, where
	// the kernel keeps no owner): refused, since its user cannot be told.
	ErrPeerUnknown = errors.New("no process holds the far end of the connection")
)
