package journal

import "github.com/cdpvisor/cdpvisor/actors/actor"

// request is what the actor's mailbox carries: a closed set, the types
// below and forgetJournal (retire.go) and no others, each with its case in
// handle. Entries come another way (Record).
type request interface{ isJournalRequest() }

func (read) isJournalRequest()          {}
func (forgetJournal) isJournalRequest() {}

// read asks for a world's entries after since; wait: if there are none
// yet, the answer waits for the next.
type read struct {
	world string
	since Since
	wait  bool
	done  <-chan struct{}
	reply chan readAnswer
}

type readAnswer struct {
	entries []Entry
	err     error
}

func (r *run) handle(m request) {
	switch m := m.(type) {
	case read:
		r.drain()
		r.read(m)
	case forgetJournal:
		r.forget(m)
	default:
		actor.Unknown(r.a.spec.Log, r.a.String(), m)
	}
}
