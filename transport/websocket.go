// Package transport moves CDP messages: over websockets (gorilla), and the
// HTTP surface of a debugging endpoint (/json/*). It never decodes whole
// messages on the forwarding path.
package transport

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// MaxMessageSize bounds one CDP message in either direction. Chromium's own
// pipe cap is 100 MB; screenshots and large evaluations stay well below.
const MaxMessageSize = 256 << 20

// HandshakeTimeout bounds a websocket handshake with the browser.
const HandshakeTimeout = 10 * time.Second

const controlTimeout = time.Second

// FrameBufferSize is the websocket read/write buffer size on both ends.
const FrameBufferSize = 32 * 1024

// copyBuffers are reused by CopyMessage so a steady relay allocates nothing.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32*1024); return &b }}

// Side names which end of a relay failed.
type Side string

const (
	ClientSide  Side = "client"
	BrowserSide Side = "browser"
)

// EndError says which side of a relay ended it, and how.
type EndError struct {
	Side Side
	Err  error
}

func (e *EndError) Error() string { return string(e.Side) + " side: " + e.Err.Error() }
func (e *EndError) Unwrap() error { return e.Err }

// CopyMessages forwards every message from src to dst, frame by frame,
// until either fails. The error names the side that failed.
func CopyMessages(dst, src *websocket.Conn, srcSide, dstSide Side) error {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	for {
		kind, r, err := src.NextReader()
		if err != nil {
			return &EndError{Side: srcSide, Err: err}
		}
		if err := copyMessage(dst, kind, r, *bp); err != nil {
			if errors.Is(err, errSourceRead) {
				return &EndError{Side: srcSide, Err: err}
			}
			return &EndError{Side: dstSide, Err: err}
		}
	}
}

var errSourceRead = errors.New("reading message")

type sourceError struct{ err error }

func (e sourceError) Error() string   { return "reading message: " + e.err.Error() }
func (e sourceError) Is(t error) bool { return t == errSourceRead }
func (e sourceError) Unwrap() error   { return e.err }

// sourceReader marks errors of the reading side so a copy can tell them apart.
type sourceReader struct{ r io.Reader }

func (s sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		err = sourceError{err}
	}
	return n, err
}

func copyMessage(dst *websocket.Conn, kind int, r io.Reader, buf []byte) error {
	w, err := dst.NextWriter(kind)
	if err != nil {
		return err
	}
	if _, err := io.CopyBuffer(writerOnly{w}, sourceReader{r}, buf); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// writerOnly hides ReadFrom so io.CopyBuffer uses the pooled buffer and the
// source-error marking above.
type writerOnly struct{ io.Writer }

// CloseWith sends a close frame with code and reason, then closes conn.
// Safe from any goroutine (gorilla allows WriteControl and Close anywhere).
func CloseWith(conn *websocket.Conn, code int, reason string) {
	if len(reason) > 120 { // a close frame's payload is at most 125 bytes
		reason = reason[:120]
	}
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(controlTimeout))
	_ = conn.Close()
}

// PeerClose returns the close code and text a peer sent, if it sent one
// that may be forwarded (1005 and 1006 are never sent on the wire).
func PeerClose(err error) (code int, text string, ok bool) {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) {
		return 0, "", false
	}
	switch ce.Code {
	case websocket.CloseNoStatusReceived:
		return websocket.CloseNormalClosure, "", true
	case websocket.CloseAbnormalClosure, websocket.CloseTLSHandshake:
		return 0, "", false
	}
	return ce.Code, ce.Text, true
}

// TooLarge reports whether err is a message over MaxMessageSize.
func TooLarge(err error) bool { return errors.Is(err, websocket.ErrReadLimit) }
