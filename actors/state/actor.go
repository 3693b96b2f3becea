package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/rs/zerolog"
)

// Spec configures the StateActor: the state directory, and the state file
// it writes there.
type Spec struct {
	Dir   string
	State File
	Log   zerolog.Logger
}

// Actor owns this coordinator's state files: it writes them when it
// starts and removes them when it stops.
type Actor struct {
	spec    Spec
	path    string
	mailbox chan request
}

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in Serve.
type request interface{ isStateRequest() }

type setInstances struct {
	instances []Instance
	reply     chan error
}

func (setInstances) isStateRequest() {}

// New makes the actor; nothing is written until it is served.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, path: FileName(spec.Dir, spec.State.PID), mailbox: make(chan request)}
}

func (a *Actor) String() string { return "state " + a.path }

// Path is this coordinator's own state file.
func (a *Actor) Path() string { return a.path }

// Write publishes the state files now; Serve calls it, and start-up calls
// it first so a port-in-use or unwritable state dir fails before anything
// else starts.
func (a *Actor) Write() error {
	if err := PrepareDir(a.spec.Dir); err != nil {
		return err
	}
	data, err := json.MarshalIndent(a.spec.State, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(a.path, data); err != nil {
		return fmt.Errorf("write the state file %s: %w", a.path, err)
	}
	pointer := a.spec.Dir + string(os.PathSeparator) + PointerFile
	if err := WriteFileAtomic(pointer, data); err != nil {
		return fmt.Errorf("write the state file %s: %w", pointer, err)
	}
	return nil
}

// Serve keeps the state files in place until ctx is done, then removes them.
func (a *Actor) Serve(ctx context.Context) error {
	if _, err := os.Stat(a.path); err != nil {
		if err := a.Write(); err != nil {
			a.spec.Log.Error().Err(err).Msg("state file")
		}
	}
	for {
		select {
		case <-ctx.Done():
			a.remove()
			return ctx.Err()
		case m := <-a.mailbox:
			switch m := m.(type) {
			case setInstances:
				a.spec.State.Instances = m.instances
				m.reply <- a.Write()
			default:
				actor.Unknown(a.spec.Log, a.String(), m)
			}
		}
	}
}

// SetInstances republishes the state files with this list of instances.
func (a *Actor) SetInstances(ctx context.Context, instances []Instance) error {
	err, sendErr := actor.Ask(ctx, a.mailbox, func(r chan error) request { return setInstances{instances: instances, reply: r} })
	if sendErr != nil {
		return sendErr
	}
	return err
}

// remove deletes our file and, if the pointer still points at us, points
// it at the most recently started coordinator still alive (or removes it).
func (a *Actor) remove() {
	if err := os.Remove(a.path); err != nil && !os.IsNotExist(err) {
		a.spec.Log.Warn().Err(err).Msg("remove state file")
	}
	pointer := filepath.Join(a.spec.Dir, PointerFile)
	if !Mine(pointer) {
		return // gone, or another user's: never ours to change
	}
	if s, err := Read(pointer); err != nil || s.PID != a.spec.State.PID || s.Port != a.spec.State.Port {
		return // another coordinator's by now
	}
	if next, data, ok := latestLive(a.spec.Dir); ok {
		if err := WriteFileAtomic(pointer, data); err == nil {
			a.spec.Log.Debug().Int("pid", next.PID).Msg("state.json points at the next live coordinator")
			return
		}
	}
	_ = os.Remove(pointer)
	a.spec.Log.Debug().Str("path", a.path).Msg("state files removed")
}

// latestLive finds the most recently started coordinator in dir whose pid
// is alive, and its file's content.
func latestLive(dir string) (File, []byte, bool) {
	paths := stateFiles(dir, nil)
	var best File
	var bestData []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s, err := Parse(p, data)
		if err != nil || !proc.PidAlive(s.PID) || s.StartedAt.Before(best.StartedAt) {
			continue
		}
		best, bestData = s, data
	}
	return best, bestData, bestData != nil
}
