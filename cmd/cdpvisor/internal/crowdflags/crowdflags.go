// Package crowdflags is the command line's part in a crowd of agents on
// one browser (actors/pacing): the flags of serve and mcp that pace the
// worlds' page loads and bound their number.
package crowdflags

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors"
)

// Coordinator are the crowd's flags of serve and mcp.
type Coordinator struct {
	Loads Loads
}

// Names are the flags Register puts on a flag set, for the help's group.
var Names = []string{"max-loads"}

// Register puts the crowd's flags on fs.
func (c *Coordinator) Register(fs *flag.FlagSet) {
	fs.Var(&c.Loads, "max-loads", "how many page loads of the worlds' clients (navigations, reloads, history moves, new pages at a URL) "+
		"each browser runs at once; the next wait their turn, taken world by world; 0: no pacing (default: auto, as many as the machine has processors)")
}

// Apply gives the coordinator's configuration the crowd's settings.
func (c *Coordinator) Apply(cfg *actors.CoordinatorConfig) {
	switch {
	case !c.Loads.set:
		cfg.MaxLoads = 0 // the pacer's default, from the machine
	case c.Loads.n == 0:
		cfg.MaxLoads = -1
	default:
		cfg.MaxLoads = c.Loads.n
	}
}

// Loads is --max-loads: a number of loads, 0 for none, or auto.
type Loads struct {
	n   int
	set bool
}

func (l *Loads) String() string {
	if l == nil || !l.set {
		return "auto"
	}
	return strconv.Itoa(l.n)
}

func (l *Loads) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		*l = Loads{}
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number of loads at once (0: no pacing), or auto")
	}
	*l = Loads{n: n, set: true}
	return nil
}
