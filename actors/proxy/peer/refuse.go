package peer

import (
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// refuseWait bounds the answer to a refused connection, drain included.
const refuseWait = 2 * time.Second

// maxDrain bounds what is read (and thrown away) from a refused peer.
const maxDrain = 64 << 10

// refuse answers a refused connection, in a goroutine the listener owns
// when a slot is free, else by closing it at once.
func (l *Listener) refuse(c net.Conn, text string) {
	select {
	case l.refusing <- struct{}{}:
		go func() {
			defer func() { <-l.refusing }()
			answer(c, text)
		}()
	default:
		c.Close()
	}
}

// answer writes a 403 and closes c. Every client on the endpoint speaks
// HTTP first (a request, or a websocket upgrade), so an HTTP answer is read
// by curl, a browser or a CDP library as the reason it was refused, where a
// silent close reads as a broken server. The 403 is written before the
// request is read, and what the peer sent is then read and thrown away
// until it closes: closing a socket with unread data sends a reset, and the
// peer's kernel would drop the answer before the client read it.
func answer(c net.Conn, text string) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(refuseWait))
	if _, err := io.WriteString(c, text); err != nil {
		return
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_, _ = io.CopyN(io.Discard, c, maxDrain)
}

// refusal is the HTTP answer to a connection who made (err: the system
// could not tell) when owner's is the only one served.
func refusal(owner, who User, err error) string {
	body := fmt.Sprintf("cdpvisor: refused: this endpoint serves %s only; the connection came from %s\n", owner, who)
	if err != nil {
		why := "the system could not tell which user made the connection"
		if errors.Is(err, ErrPeerUnknown) {
			why = "no process holds the other end of the connection any more, so its user cannot be told"
		}
		body = fmt.Sprintf("cdpvisor: refused: this endpoint serves %s only, and %s\n", owner, why)
	}
	return "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
}
