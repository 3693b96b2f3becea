package journal

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrBadSince is a since that is neither a sequence number nor a time.
var ErrBadSince = errors.New("since is neither an entry's sequence number nor an RFC 3339 time")

// Since says which entries a read wants: those after a sequence number
// (an entry's seq), or after a time. The zero Since wants them all.
type Since struct {
	Seq  uint64
	Time time.Time
}

// ParseSince reads a since as the endpoint, the CLI and MCP take it: ""
// (everything), a sequence number ("42": the entries after entry 42), or an
// RFC 3339 time ("2026-11-27T11:00:00Z": the entries after it).
func ParseSince(s string) (Since, error) {
	if s == "" {
		return Since{}, nil
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return Since{Seq: n}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return Since{}, fmt.Errorf("%w: %q", ErrBadSince, s)
	}
	return Since{Time: t}, nil
}

// wants says e comes after since.
func (s Since) wants(e *Entry) bool {
	return e.Seq > s.Seq && (s.Time.IsZero() || e.Time.After(s.Time))
}
