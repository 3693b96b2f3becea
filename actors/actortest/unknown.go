package actortest

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// CatchUnknown runs dispatch, which must end in actor.Unknown, and returns
// its panic; a dispatch that returns, or panics otherwise, fails t.
func CatchUnknown(t testing.TB, dispatch func()) (u actor.UnknownMessage) {
	t.Helper()
	defer func() {
		t.Helper()
		got := recover()
		var ok bool
		if u, ok = got.(actor.UnknownMessage); !ok {
			t.Fatalf("the dispatch ended with %v, want the panic of actor.Unknown", got)
		}
	}()
	dispatch()
	return u
}
