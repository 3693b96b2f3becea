package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Head is what a relay needs of a CDP message: its top-level id, method and
// sessionId, found without decoding the rest. Method and SessionID point
// into the message unless they held escapes.
type Head struct {
	ID        int64
	HasID     bool // a top-level integer id is present
	Method    []byte
	SessionID []byte
	HasError  bool // a top-level "error" member: a failed answer
	Sessions  int  // how many top-level "sessionId" members it has (more than one is refused by a multiplexer)

	idStart, idEnd int // where the id's digits are, for rewriting it
}

// ErrNotObject is returned for input that is not a JSON object.
var ErrNotObject = errors.New("CDP message is not a JSON object")

// ScanHeadPrefix reads what it can of a message's head from its first
// bytes, for a message streamed on before it was read whole: the members
// that end inside prefix are found (Chromium puts "id" first in an answer
// and "method" first in an event); complete says the whole message was seen.
func ScanHeadPrefix(prefix []byte) (h Head, complete bool) {
	want, _ := scanMembers(prefix, &h)
	return h, want == ""
}

// ScanHead finds the top-level id, method and sessionId of msg. Keys may
// come in any order (the last of duplicates wins, as in encoding/json),
// values are skipped without decoding, nested keys are ignored. An id that
// is not an integer, or a method that is not a string, counts as absent.
func ScanHead(msg []byte) (Head, error) {
	var h Head
	if want, at := scanMembers(msg, &h); want != "" {
		if want == wantObject {
			return h, ErrNotObject
		}
		return h, &syntaxError{want: want, at: at}
	}
	return h, nil
}

const wantObject = "an object"

// scanMembers notes every complete top-level member of msg in h. Where msg
// stops being a valid object it says what it wanted there, and at which
// byte; it does not allocate.
func scanMembers(msg []byte, h *Head) (want string, at int) {
	s := scanner{b: msg}
	s.space()
	if !s.eat('{') {
		return wantObject, s.i
	}
	s.space()
	if s.eat('}') {
		return "", 0
	}
	for {
		s.space()
		key, ok := s.key()
		if !ok {
			return "a key", s.i
		}
		s.space()
		if !s.eat(':') {
			return "':'", s.i
		}
		s.space()
		start := s.i
		if !s.value() || s.i >= len(s.b) {
			// A value that runs to the end is cut (a number could go on).
			return "a value", s.i
		}
		h.note(key, msg, start, s.i)
		s.space()
		if s.eat(',') {
			continue
		}
		if s.eat('}') {
			return "", 0
		}
		return "',' or '}'", s.i
	}
}

// note records a top-level member.
func (h *Head) note(key keyKind, msg []byte, start, end int) {
	raw := msg[start:end]
	switch key {
	case keyID:
		h.ID, h.HasID = parseInt(raw)
		if h.HasID {
			h.idStart, h.idEnd = start, end
		}
	case keyMethod:
		h.Method, _ = stringValue(raw)
	case keySessionID:
		h.SessionID, _ = stringValue(raw)
		h.Sessions++
	case keyError:
		h.HasError = true
	}
}

// Is reports whether the message's method is m.
func (h *Head) Is(m string) bool { return string(h.Method) == m }

// AppendSession ends msg, a CDP message written up to its last member,
// with its sessionId when it has one (session), and its closing brace.
func AppendSession(msg, session []byte) []byte {
	if len(session) > 0 {
		msg = fmt.Appendf(msg, `,"sessionId":%q`, session)
	}
	return append(msg, '}')
}

// WithID returns msg with its top-level id replaced by id, appended to dst.
// The rest of the message is copied byte for byte.
func (h *Head) WithID(dst, msg []byte, id int64) []byte {
	dst = append(dst, msg[:h.idStart]...)
	dst = strconv.AppendInt(dst, id, 10)
	return append(dst, msg[h.idEnd:]...)
}

type keyKind uint8

const (
	keyOther keyKind = iota
	keyID
	keyMethod
	keySessionID
	keyError
)

type scanner struct {
	b []byte
	i int
}

type syntaxError struct {
	want string
	at   int
}

func (e *syntaxError) Error() string {
	return "malformed CDP message: want " + e.want + " at byte " + strconv.Itoa(e.at)
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads a member name and says whether it is one the head wants.
func (s *scanner) key() (keyKind, bool) {
	start := s.i
	if !s.str() {
		return keyOther, false
	}
	raw := s.b[start:s.i]
	name := raw[1 : len(raw)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		decoded, ok := stringValue(raw)
		if !ok {
			return keyOther, false
		}
		name = decoded
	}
	switch string(name) {
	case "id":
		return keyID, true
	case "method":
		return keyMethod, true
	case "sessionId":
		return keySessionID, true
	case "error":
		return keyError, true
	}
	return keyOther, true
}

// str skips a string, s.i at its opening quote. Large strings (base64
// screenshots) are crossed with IndexByte rather than byte by byte.
func (s *scanner) str() bool {
	if !s.eat('"') {
		return false
	}
	for {
		j := bytes.IndexByte(s.b[s.i:], '"')
		if j < 0 {
			return false
		}
		end := s.i + j
		// The quote is escaped if an odd number of backslashes precede it.
		n := 0
		for k := end - 1; k >= s.i && s.b[k] == '\\'; k-- {
			n++
		}
		s.i = end + 1
		if n%2 == 0 {
			return true
		}
	}
}

// value skips one JSON value of any kind.
func (s *scanner) value() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		return s.nested()
	default:
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.i > start
			}
			s.i++
		}
		return s.i > start
	}
}

// nested skips an object or array, counting brackets outside strings.
func (s *scanner) nested() bool {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			if !s.str() {
				return false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
	return false
}

// parseInt reads a JSON integer literal (no fraction or exponent).
func parseInt(raw []byte) (int64, bool) {
	if len(raw) == 0 || len(raw) > 20 {
		return 0, false
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	// By hand rather than strconv.ParseInt(string(raw)), which allocates.
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (1<<63-d)/10 { // n*10+d would pass 1<<63
			return 0, false
		}
		n = n*10 + d
	}
	if raw[0] == '-' {
		return -int64(n), true // 1<<63 negates to itself: math.MinInt64
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// stringValue returns a JSON string's content: a view into raw when it has
// no escapes, a decoded copy otherwise.
func stringValue(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		for _, c := range inner {
			if c < 0x20 {
				return nil, false
			}
		}
		return inner, true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}
