package actors

import (
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
