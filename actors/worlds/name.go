package worlds

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
)

// MaxNameLen is the longest world name: it goes into URLs, logs and state.
const MaxNameLen = 64

// ErrBadName refuses a world name outside the rule NameRule says.
var ErrBadName = errors.New("invalid world name")

// NameRule says what a world name may be, for the answers that refuse one.
const NameRule = "a world name is 1 to 64 characters, each a letter (A-Z, a-z), a digit, '.', '_' or '-'"

// CheckName accepts a world name: ASCII letters, digits, '.', '_' and '-',
// 1 to 64 of them. Nothing that a URL path, a shell or a file name would
// read differently: the name is a path segment of the endpoint and a key
// for load balancers.
func CheckName(name string) error {
	if name == "" || len(name) > MaxNameLen {
		return fmt.Errorf("%w %q: %s", ErrBadName, name, NameRule)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return fmt.Errorf("%w %q: %s", ErrBadName, name, NameRule)
		}
	}
	if name == "." || name == ".." {
		// A path segment that URL clients resolve away.
		return fmt.Errorf("%w %q: %s, and not . or ..", ErrBadName, name, NameRule)
	}
	return nil
}

// FreshName is a new world's name when none is given (wrap --isolate,
// browser_context open): agent- and 8 random letters and digits.
func FreshName() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [8]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "agent-" + string(b[:])
}

// IsFresh says name has the shape FreshName gives: such a world is an
// agent's for one run and is never kept.
func IsFresh(name string) bool {
	rest, ok := strings.CutPrefix(name, "agent-")
	return ok && len(rest) == 8 && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz0123456789") == ""
}
