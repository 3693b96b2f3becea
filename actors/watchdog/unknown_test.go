package watchdog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// strayRequest is of the actor's set but has no case in handle: a message
// added without its handling.
type strayRequest struct{}

func (strayRequest) isWatchdogRequest() {}

// The watchdog does not panic on a message it has no case for (its guard
// would end every browser), but it does not drop it in silence either.
func TestUnknownRequestIsLoggedAsAnError(t *testing.T) {
	var logs bytes.Buffer
	w := New(Spec{Log: zerolog.New(&logs)})
	g := &guardProcess{closing: true} // none running: nothing to tell
	if got := w.handle(strayRequest{}, &table{launches: map[int]message{}}, g); got != g {
		t.Errorf("handle replaced the guard")
	}
	if got := logs.String(); !strings.Contains(got, `"level":"error"`) || !strings.Contains(got, `"messageType":"watchdog.strayRequest"`) {
		t.Errorf("log %q, want an error naming watchdog.strayRequest", got)
	}
}
