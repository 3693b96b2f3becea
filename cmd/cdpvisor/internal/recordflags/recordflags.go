// Package recordflags is the command line's part in the recordings
// (actors/recorder): the coordinator's settings, given to serve and mcp
// (--record, --record-cap, --record-total-cap, --keep-recordings), and a
// world's own switch, given to world open and wrap --isolate (--record,
// --record=false).
package recordflags

import (
	"flag"

	"github.com/cdpvisor/cdpvisor/actors"
)

// The caps' defaults: what the recorder keeps unless told otherwise.
const (
	DefaultCap      Size = 200 << 20
	DefaultTotalCap Size = 2 << 30
)

// Coordinator are the recording flags of serve and mcp.
type Coordinator struct {
	Record   bool
	Cap      Size
	TotalCap Size
	Keep     bool
}

// Names are the flags Register puts on a flag set, for the help's group.
var Names = []string{"record", "record-cap", "record-total-cap", "keep-recordings"}

// Register puts the coordinator's recording flags on fs.
func (c *Coordinator) Register(fs *flag.FlagSet) {
	c.Cap, c.TotalCap = DefaultCap, DefaultTotalCap
	fs.BoolVar(&c.Record, "record", false, "record every world: its pages (screencast frames, navigations, console, network without bodies) and its clients' commands, "+
		"kept privately in the state dir; 'cdpvisor world trace NAME' writes a world's as a Playwright trace. A world's own switch (world open NAME --record[=false]) wins")
	fs.Var(&c.Cap, "record-cap", "the most one world's recording keeps, the oldest part dropped first: a size such as 200MB, 1GB, 500M or bytes (K, M, G: 1024s)")
	fs.Var(&c.TotalCap, "record-total-cap", "the most all recordings together keep, the oldest part dropped first (a size, as --record-cap)")
	fs.BoolVar(&c.Keep, "keep-recordings", false, "keep a fresh agent-… world's recording once the world closed (by default it is deleted with the world)")
}

// Apply gives the coordinator's configuration the recording settings.
func (c *Coordinator) Apply(cfg *actors.CoordinatorConfig) {
	cfg.Record, cfg.RecordCap, cfg.RecordTotalCap, cfg.KeepRecordings = c.Record, int64(c.Cap), int64(c.TotalCap), c.Keep
}
