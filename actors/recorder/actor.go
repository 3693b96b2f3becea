package recorder

import (
	"errors"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Spec configures the recorder.
type Spec struct {
	// Dir holds the recordings (DirIn of the state directory); made 0700.
	Dir string
	// All records every world (serve --record); a world's own switch
	// (a world request's record) records it, or not, whatever All says.
	All bool
	// WorldCap bounds each world's recording, TotalCap all of them; the
	// oldest part goes first. 0: the store's defaults (200 MB, 2 GB).
	WorldCap, TotalCap int64
	// Passing says a world's name never comes back (a fresh agent-…
	// world): its recording is deleted when it closes, unless Keep.
	Passing func(world string) bool
	Keep    bool
	Log     zerolog.Logger
}

// DirIn is where the recordings of a state directory are.
func DirIn(stateDir string) string { return filepath.Join(stateDir, "recordings") }

// Errors of the recorder's requests.
var (
	// ErrNotRecorded: nothing is kept of the world.
	ErrNotRecorded = worldapi.ErrNotRecorded
	// ErrOff: the recorder is not running.
	ErrOff = errors.New("the recorder is not running")
)

// String names the actor in the supervisor's logs.
func (a *Actor) String() string { return "recorder" }

// Actor is the recorder.
type Actor struct {
	spec Spec
}

// New makes the recorder; it records nothing until served.
func New(spec Spec) *Actor { return &Actor{spec: spec} }
