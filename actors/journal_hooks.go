package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
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

// journalHold records a human's takeover of a world, and its hand-back,
// in the world's journal; nil when the journal is off.
func (c *Coordinator) journalHold() func(instance, world string, held bool) {
	if c.journal == nil {
		return nil
	}
	return func(_, world string, held bool) {
		note := "a human took the world over: its agents' input and navigation wait"
		if !held {
			note = "handed back to the world's agents"
		}
		c.journal.Record(journal.Entry{World: world, Kind: journal.KindTakeover, Note: note})
	}
}

// journalDownload records a world's download beginning and finishing in
// its journal (its URL, file name and state); nil when the journal is off.
func (c *Coordinator) journalDownload() func(e downloads.Entry) {
	if c.journal == nil {
		return nil
	}
	return func(e downloads.Entry) {
		if e.Context == "" {
			return // no world's
		}
		note := e.State + ": " + e.Filename
		if e.State == downloads.Completed {
			note += fmt.Sprintf(" (%d bytes)", e.ReceivedBytes)
		}
		c.journal.Record(journal.Entry{World: e.Context, Kind: journal.KindDownload, URL: e.URL, Note: note})
	}
}

// worldsJournal is the journal as the worlds see it; nil when it is off.
func (c *Coordinator) worldsJournal() worlds.Journal {
	if c.journal == nil {
		return nil // not a nil *journal.Actor in the interface
	}
	return c.journal
}

// ErrNoJournal: the coordinator keeps no journal (serve --journal=false).
var ErrNoJournal = errors.New("the journal is off: this coordinator keeps no journal of its worlds")

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
