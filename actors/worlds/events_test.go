package worlds

import (
	"errors"
	"testing"

	"github.com/rs/zerolog"
)

// Chromium never answers what a page session had pending when it detached
// (a tab a client closed): those commands fail at the detach, the others
// wait on. (The storage room forgets the page: storage's
// TestADetachedPageIsForgotten.)
func TestCommandsOfADetachedPageFailAtOnce(t *testing.T) {
	r := newRun(&Actor{spec: Spec{Log: zerolog.Nop(), SnapshotEvery: DefaultSnapshotEvery}})
	defer r.snapshots.Stop()
	got := map[int64]error{}
	for id, session := range map[int64]string{1: "gone", 2: "gone", 3: "other", 4: ""} {
		r.pending[id] = pendingCall{session: session, then: func(a answer) { got[id] = a.err() }}
	}
	r.onEvent(sessionEvent{method: "Target.detachedFromTarget", params: []byte(`{"sessionId":"gone","targetId":"target"}`)})
	if len(got) != 2 || !errors.Is(got[1], errPageGone) || !errors.Is(got[2], errPageGone) {
		t.Errorf("answered %v, want 1 and 2 failed with errPageGone", got)
	}
	if _, ok := r.pending[3]; !ok || len(r.pending) != 2 {
		t.Errorf("pending %v: want 3 and 4 still waiting", r.pending)
	}
}
