package worlds

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// strayRequest and straySession are of the actor's sets but have no case:
// a message added without its handling.
type (
	strayRequest struct{}
	straySession struct{}
)

func (strayRequest) isWorldsRequest()     {}
func (straySession) isWorldsSessionNews() {}

// A message no handler of the chain takes fails loudly, naming its type:
// an error line, then the panic suture logs before it restarts the actor.
// Nothing is dropped in silence.
func TestUnknownMessageFailsLoudly(t *testing.T) {
	for name, c := range map[string]struct {
		dispatch func(*run)
		typ      string
	}{
		"mailbox": {func(r *run) { r.handle(strayRequest{}) }, "worlds.strayRequest"},
		"session": {func(r *run) { r.onSession(straySession{}) }, "worlds.straySession"},
	} {
		t.Run(name, func(t *testing.T) {
			var logs bytes.Buffer
			r := newRun(&Actor{spec: Spec{Instance: "test", Log: zerolog.New(&logs), SnapshotEvery: DefaultSnapshotEvery}, book: map[string]*world{}})
			defer r.snapshots.Stop()
			u := actortest.CatchUnknown(t, func() { c.dispatch(r) })
			if u.Type != c.typ || u.Actor != "worlds test" {
				t.Errorf("panic %+v, want the type %s of worlds test", u, c.typ)
			}
			if got := logs.String(); !strings.Contains(got, `"level":"error"`) || !strings.Contains(got, c.typ) {
				t.Errorf("log %q, want an error naming %s", got, c.typ)
			}
		})
	}
}
