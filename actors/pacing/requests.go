package pacing

import (
	"time"

	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// request is what the actor's mailbox carries: a closed set, the types
// below, each with its case in handle.
type request interface{ isPacingRequest() }

func (askSlot) isPacingRequest()      {}
func (follow) isPacingRequest()       {}
func (forget) isPacingRequest()       {}
func (askFigures) isPacingRequest()   {}
func (askInstances) isPacingRequest() {}
func (cpuSample) isPacingRequest()    {}

type (
	// askSlot asks a slot for a load of a world.
	askSlot struct {
		instance, world string
		asked           time.Time
		reply           chan grant
	}
	// grant is the answer: granted is closed once the load may go (at once
	// when a slot was free).
	grant struct {
		t       ticket
		granted chan struct{}
		err     error
	}
	// follow starts following an instance; forget stops.
	follow struct {
		inst plug.Instance
		done chan struct{}
	}
	forget struct{ id string }
	// askFigures asks an instance's figures of the moment ("": the
	// default instance; a port: the instance whose endpoint it is).
	askFigures struct {
		ref   string
		now   time.Time
		reply chan figuresAnswer
	}
	figuresAnswer struct {
		inst plug.Instance
		f    figures
		err  error
	}
	// askInstances asks the instances followed, for the CPU sampler.
	askInstances struct{ reply chan []plug.Instance }
	// cpuSample is the processor time an instance's browser had used at a
	// moment (its process group, pid).
	cpuSample struct {
		id  string
		pid int
		at  time.Time
		cpu time.Duration
	}
)
