package transport

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// PipeMaxMessage is Chromium's own read cap on the debugging pipe.
const PipeMaxMessage = 100 << 20

// PipeConn speaks the --remote-debugging-pipe protocol: each message is
// JSON followed by one NUL byte, both ways (reads from one stream, writes
// to another: fds 3 and 4 as the browser sees them).
type PipeConn struct {
	r      *bufio.Reader
	w      io.Writer
	closer func() error
	limit  int
	once   sync.Once
	frame  []byte // write scratch: a small message and its NUL, for one write
}

// NewPipeConn reads messages from r and writes them to w; closer ends
// both (it may be nil).
func NewPipeConn(r io.Reader, w io.Writer, closer func() error) *PipeConn {
	return &PipeConn{r: bufio.NewReaderSize(r, 64*1024), w: w, closer: closer, limit: PipeMaxMessage}
}

func (p *PipeConn) Mode() string { return "pipe" }

// ErrPipeClosed is a pipe that closed: for a browser's, the browser exited
// (or was let go).
var ErrPipeClosed = errors.New("the browser's debugging pipe closed")

// ErrPipeMessageTooLarge is a message longer than the pipe's cap.
var ErrPipeMessageTooLarge = errors.New("pipe message exceeds 100 MB without a NUL terminator")

// Read fills m with the bytes up to the next NUL. EOF in the middle of a
// message is io.ErrUnexpectedEOF; a clean EOF is io.EOF.
func (p *PipeConn) Read(m *Message) error {
	m.B, m.Binary = m.B[:0], false
	for {
		chunk, err := p.r.ReadSlice(0)
		if err == nil {
			m.B = append(m.B, chunk[:len(chunk)-1]...)
			return nil
		}
		m.B = append(m.B, chunk...)
		if len(m.B) > p.limit {
			return ErrPipeMessageTooLarge
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && len(m.B) > 0 {
			return io.ErrUnexpectedEOF
		}
		return err
	}
}

// ReadStream reads whole messages: pipe clients send commands, never
// anything huge.
func (p *PipeConn) ReadStream(m *Message, _ int) (io.Reader, error) { return nil, p.Read(m) }

// WriteStream sends prefix, then rest, then the NUL.
func (p *PipeConn) WriteStream(prefix []byte, rest io.Reader, _ bool) error {
	if err := copyStream(p.w, prefix, rest); err != nil {
		return err
	}
	_, err := p.w.Write(nul)
	return err
}

// Write sends msg followed by a NUL. A NUL inside msg would split it in
// two at the other end, so it is refused.
func (p *PipeConn) Write(msg []byte, _ bool) error { return p.WriteJoined(nil, msg) }

// WriteJoined sends head and then body as one message (a NUL after them):
// a message with a member put in front, without a copy of a large body.
func (p *PipeConn) WriteJoined(head, body []byte) error {
	if bytes.IndexByte(head, 0) >= 0 || bytes.IndexByte(body, 0) >= 0 {
		return fmt.Errorf("a CDP message for the pipe contains a NUL byte")
	}
	if len(head)+len(body) > pipeCopyMax {
		// Large: a write per part instead of a copy of the whole message.
		for _, part := range [][]byte{head, body, nul} {
			if len(part) == 0 {
				continue
			}
			if _, err := p.w.Write(part); err != nil {
				return err
			}
		}
		return nil
	}
	p.frame = append(append(append(p.frame[:0], head...), body...), 0)
	_, err := p.w.Write(p.frame)
	return err
}

// pipeCopyMax is the largest message sent with its NUL in one write.
const pipeCopyMax = 64 << 10

var nul = []byte{0}

// Close closes both streams; the pipe has no way to say why.
func (p *PipeConn) Close(int, string) {
	p.once.Do(func() {
		if p.closer != nil {
			_ = p.closer()
		}
	})
}
