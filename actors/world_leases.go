package actors

import (
	"errors"
	"os"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/leases"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// leasesActor closes the worlds that `wrap --isolate` made for its child
// once that wrap has ended (see package leases): the wrap runs in another
// process, and leaves its lease in this coordinator's state dir.
func (c *Coordinator) leasesActor() *leases.Actor {
	return leases.New(leases.Spec{
		StateDir: c.cfg.StateDir, PID: os.Getpid(), Close: c.CloseWorld, Alive: proc.PidAlive, Log: c.cfg.Log,
		Gone: func(err error) bool {
			return errors.Is(err, worlds.ErrUnknownWorld) || errors.Is(err, ErrUnknownInstance)
		},
	})
}
