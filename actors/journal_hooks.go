package actors

import (
	"context"
	"errors"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/journal"
)

// journalHost records a guarded world's host counts in its journal when
// they are news; nil when the journal is off.
func (c *Coordinator) journalHost() func(world, host string, n guard.HostCount) {
	if c.journal == nil {
		return nil
	}
	return func(world, host string, n guard.HostCount) {
		c.journal.Record(journal.Entry{World: world, Kind: journal.KindHost, Host: host, Reached: int64(n.Reached), Denied: int64(n.Denied)})
	}
}

// ErrNoJournal: the coordinator keeps no journal (serve --journal=false).
var ErrNoJournal = errors.New("the journal is off (the coordinator was started with --journal=false)")

// Journal is the journal of the world called name after since (an
// entry's seq or an RFC 3339 time; "": all of it), oldest first.
func (c *Coordinator) Journal(ctx context.Context, name, since string) ([]journal.Entry, error) {
	if c.journal == nil {
		return nil, ErrNoJournal
	}
	s, err := journal.ParseSince(since)
	if err != nil {
		return nil, err
	}
	return c.journal.Read(ctx, name, s, false)
}
