package transport

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestPipeRoundTrip(t *testing.T) {
	var stream bytes.Buffer
	w := NewPipeConn(nil, &stream, nil)
	msgs := []string{`{"id":1}`, ``, strings.Repeat("x", 200<<10), `{"method":"a"}`}
	for _, m := range msgs {
		if err := w.Write([]byte(m), false); err != nil {
			t.Fatal(err)
		}
	}
	r := NewPipeConn(&stream, nil, nil)
	for i, want := range msgs {
		m := NewMessage()
		if err := r.Read(m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(m.B) != want {
			t.Fatalf("message %d: got %d bytes, want %d", i, len(m.B), len(want))
		}
		m.Release()
	}
	if err := r.Read(NewMessage()); err != io.EOF {
		t.Fatalf("after the last message: %v, want io.EOF", err)
	}
}

func TestPipeRefusesNULAndTruncation(t *testing.T) {
	if err := NewPipeConn(nil, io.Discard, nil).Write([]byte("a\x00b"), false); err == nil {
		t.Fatal("a message with a NUL was written")
	}
	r := NewPipeConn(strings.NewReader(`{"id":1}`+"\x00"+`{"id":`), nil, nil)
	m := NewMessage()
	if err := r.Read(m); err != nil || string(m.B) != `{"id":1}` {
		t.Fatalf("first: %q %v", m.B, err)
	}
	if err := r.Read(m); err != io.ErrUnexpectedEOF {
		t.Fatalf("truncated: %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestPipeMessageLimit(t *testing.T) {
	r := NewPipeConn(strings.NewReader(strings.Repeat("x", 300<<10)+"\x00"), nil, nil)
	r.limit = 100 << 10
	if err := r.Read(NewMessage()); err != ErrPipeMessageTooLarge {
		t.Fatalf("got %v, want ErrPipeMessageTooLarge", err)
	}
}

// Any byte stream splits into the NUL-separated messages, whatever the
// read sizes; writing those messages back gives the same stream.
func FuzzPipeFraming(f *testing.F) {
	f.Add([]byte("{\"id\":1}\x00{\"id\":2}\x00"), uint8(3))
	f.Add([]byte("\x00\x00abc"), uint8(1))
	f.Add([]byte(strings.Repeat("y", 70000)+"\x00z\x00"), uint8(200))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		want := bytes.Split(stream, []byte{0})
		trailing := want[len(want)-1]
		want = want[:len(want)-1]
		r := NewPipeConn(&chunkedReader{b: stream, n: int(chunk%64) + 1}, nil, nil)
		var out bytes.Buffer
		w := NewPipeConn(nil, &out, nil)
		for i := range want {
			m := NewMessage()
			if err := r.Read(m); err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
			if !bytes.Equal(m.B, want[i]) {
				t.Fatalf("message %d: %q, want %q", i, m.B, want[i])
			}
			if err := w.Write(m.B, false); err != nil {
				t.Fatal(err)
			}
			m.Release()
		}
		err := r.Read(NewMessage())
		if len(trailing) == 0 && err != io.EOF || len(trailing) > 0 && err != io.ErrUnexpectedEOF {
			t.Fatalf("end: %v with %d trailing bytes", err, len(trailing))
		}
		if !bytes.Equal(out.Bytes(), stream[:len(stream)-len(trailing)]) {
			t.Fatal("re-framed stream differs")
		}
	})
}

type chunkedReader struct {
	b []byte
	n int
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(c.n, len(p), len(c.b))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

func TestStreamedWritesFrameOneMessage(t *testing.T) {
	var stream bytes.Buffer
	w := NewPipeConn(nil, &stream, nil)
	body := strings.Repeat("y", 300<<10)
	if err := w.WriteStream([]byte(`{"id":1,"result":"`), strings.NewReader(body+`"}`), false); err != nil {
		t.Fatal(err)
	}
	_ = w.Write([]byte(`{"id":2}`), false)
	r := NewPipeConn(&stream, nil, nil)
	m := NewMessage()
	if err := r.Read(m); err != nil || string(m.B) != `{"id":1,"result":"`+body+`"}` {
		t.Fatalf("streamed message: %d bytes, %v", len(m.B), err)
	}
	if err := r.Read(m); err != nil || string(m.B) != `{"id":2}` {
		t.Fatalf("next message: %q %v", m.B, err)
	}
}

func TestStreamFailureIsTheSources(t *testing.T) {
	err := NewPipeConn(nil, io.Discard, nil).WriteStream([]byte("{"), iotestErrReader{}, false)
	var se *SourceError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want a *SourceError", err)
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
