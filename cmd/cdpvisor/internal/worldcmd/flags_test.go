package worldcmd

import (
	"errors"
	"slices"
	"testing"

	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/seedflags"
)

// Flags may come before, between and after the action and the name.
func TestSplitArgs(t *testing.T) {
	for _, c := range []struct {
		args         []string
		flags, words []string
	}{
		{[]string{"open", "alice"}, nil, []string{"open", "alice"}},
		{[]string{"--state-dir", "/d", "open", "alice", "--json"}, []string{"--state-dir", "/d", "--json"}, []string{"open", "alice"}},
		{[]string{"open", "--instance=x", "alice"}, []string{"--instance=x"}, []string{"open", "alice"}},
		{[]string{"list", "--json"}, []string{"--json"}, []string{"list"}},
	} {
		flags, words := SplitArgs(c.args)
		if !slices.Equal(flags, c.flags) || !slices.Equal(words, c.words) {
			t.Errorf("SplitArgs(%q): %q %q, want %q %q", c.args, flags, words, c.flags, c.words)
		}
	}
}

// A command line that cannot be done is a usage error before any
// coordinator is looked for.
func TestCheckRefusesBeforeLooking(t *testing.T) {
	for _, words := range [][]string{{}, {"open"}, {"open", "a/b"}, {"close", ".."}, {"list", "x"}, {"frob"}, {"open", "a", "b"}} {
		var o Options
		err := o.Take(words)
		if err == nil {
			err = o.Check()
		}
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", words, err)
		}
	}
	for _, o := range []Options{
		{Action: "list", Forget: true}, {Action: "open", Name: "a", Output: "f"}, {Action: "close", Name: "a", Seed: seedflags.Flags{FromWorld: "b"}},
		{Action: "export"},
	} {
		var ue *UsageError
		if err := o.Check(); !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	for _, words := range [][]string{{"open", "alice"}, {"list"}, {"close", "agent-1"}, {"export", "alice"}} {
		var o Options
		if err := o.Take(words); err != nil || o.Check() != nil {
			t.Errorf("%q refused: %v %v", words, err, o.Check())
		}
	}
}
