// Package fsm declares cdpvisor's explicit state machines: the browser machine
// (one per BrowserActor, browser.go), the connection machine (one per
// RelayActor, connection.go), and the correlator of disconnect signals that
// the relay consults. Each machine lists its states and events together in
// one place; the actor that owns a machine is the only one that fires its
// events, and it logs every error Fire returns. Machines know no actors and
// no transport: they are driven.
package fsm

import (
	"context"
	"errors"
	"fmt"

	lfsm "github.com/looplab/fsm"
)

// Transition describes one state change, handed to the owner's observer so it
// can log the observability fields it owns.
type Transition struct {
	Event string
	From  string
	To    string
}

// Machine wraps a looplab FSM with the two rules the project relies on:
// transitions never see a cancellable context (a cancelled context wedges
// looplab machines for good), and firing an event that does not apply in the
// current state is an error the caller can inspect.
type Machine struct {
	name string
	f    *lfsm.FSM
}

// Spec is a machine's declaration: its initial state and its events.
type Spec struct {
	Name    string
	Initial string
	Events  lfsm.Events
}

// New builds a machine from its declaration. observe, when not nil, is
// called after each state change (never under the machine's lock).
func New(spec Spec, observe func(Transition)) *Machine {
	m := &Machine{name: spec.Name}
	callbacks := lfsm.Callbacks{}
	if observe != nil {
		callbacks["enter_state"] = func(_ context.Context, e *lfsm.Event) {
			observe(Transition{Event: e.Event, From: e.Src, To: e.Dst})
		}
	}
	m.f = lfsm.NewFSM(spec.Initial, spec.Events, callbacks)
	return m
}

// State is the current state.
func (m *Machine) State() string { return m.f.Current() }

// Is reports whether the machine is in state s.
func (m *Machine) Is(s string) bool { return m.f.Is(s) }

// Fire applies event. Staying in the same state is not an error.
func (m *Machine) Fire(event string) error {
	err := m.f.Event(context.Background(), event)
	var same lfsm.NoTransitionError
	if err == nil || errors.As(err, &same) {
		return nil
	}
	return fmt.Errorf("%s machine: event %q in state %q: %w", m.name, event, m.f.Current(), err)
}

// Mermaid draws the machine as a Mermaid state diagram.
func (m *Machine) Mermaid() (string, error) {
	return lfsm.VisualizeWithType(m.f, lfsm.MermaidStateDiagram)
}

// Mermaid draws a declared machine without an owner, for docs.
func Mermaid(spec Spec) (string, error) {
	return New(spec, nil).Mermaid()
}
