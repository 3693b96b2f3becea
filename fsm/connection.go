package fsm

import lfsm "github.com/looplab/fsm"

// The connection machine: states and events of a RelayActor, one per client
// connection.
//
//	starting → connected → degraded → recovering → connected …
//	closing from any state.
const (
	ConnStarting   = "starting"   // connecting to the browser for the first time
	ConnConnected  = "connected"  // frames flow both ways untouched
	ConnDegraded   = "degraded"   // the browser side is gone; the client stays connected
	ConnRecovering = "recovering" // a browser is being reached and bootstrapped; requests queue
	ConnClosing    = "closing"    // both ends closed, resources released

	ConnConnect        = "connect"         // the first browser connection is up
	ConnBrowserLost    = "browser_lost"    // strong signal: the browser connection failed or closed
	ConnRecover        = "recover"         // a client request arrived while degraded
	ConnRecovered      = "recovered"       // bootstrap acknowledged, queue flushed
	ConnRecoveryFailed = "recovery_failed" // no browser, or its bootstrap failed: retry once
	ConnClose          = "close"           // client gone, pipe client lost its browser, shutdown, or recovery gave up
)

// ConnectionSpec declares the connection machine.
var ConnectionSpec = Spec{
	Name:    "connection",
	Initial: ConnStarting,
	Events: lfsm.Events{
		{Name: ConnConnect, Src: []string{ConnStarting}, Dst: ConnConnected},
		{Name: ConnBrowserLost, Src: []string{ConnConnected}, Dst: ConnDegraded},
		{Name: ConnRecover, Src: []string{ConnDegraded}, Dst: ConnRecovering},
		{Name: ConnRecovered, Src: []string{ConnRecovering}, Dst: ConnConnected},
		{Name: ConnRecoveryFailed, Src: []string{ConnRecovering}, Dst: ConnDegraded},
		{Name: ConnClose, Src: []string{ConnStarting, ConnConnected, ConnDegraded, ConnRecovering}, Dst: ConnClosing},
	},
}

// NewConnectionMachine builds a connection machine in state starting.
func NewConnectionMachine(observe func(Transition)) *Machine {
	return New(ConnectionSpec, observe)
}
