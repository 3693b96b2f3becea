package fsm

import lfsm "github.com/looplab/fsm"

// The browser machine: states and events of a BrowserActor.
//
//	idle → launching → running → stopping → idle
//	running → exited (unplanned, or hung) → idle, so the next demand relaunches.
const (
	BrowserIdle      = "idle"
	BrowserLaunching = "launching"
	BrowserRunning   = "running"
	BrowserStopping  = "stopping"
	BrowserExited    = "exited"

	BrowserLaunch       = "launch"        // a demand arrived and no browser runs
	BrowserReady        = "ready"         // the DevTools line was seen and /json/version answered
	BrowserLaunchFailed = "launch_failed" // the start failed or was cancelled; nothing is left running
	BrowserStop         = "stop"          // a planned stop began
	BrowserStopped      = "stopped"       // the process exited and its temporary profile is gone
	BrowserExit         = "exit"          // the process exited without being asked to
	BrowserHang         = "hang"          // it answered nothing for the hang timeout: it is ended as if it had crashed
	BrowserSettle       = "settle"        // the exit was recorded and cleaned up
)

// BrowserSpec declares the browser machine.
var BrowserSpec = Spec{
	Name:    "browser",
	Initial: BrowserIdle,
	Events: lfsm.Events{
		{Name: BrowserLaunch, Src: []string{BrowserIdle}, Dst: BrowserLaunching},
		{Name: BrowserReady, Src: []string{BrowserLaunching}, Dst: BrowserRunning},
		{Name: BrowserLaunchFailed, Src: []string{BrowserLaunching}, Dst: BrowserIdle},
		{Name: BrowserStop, Src: []string{BrowserRunning}, Dst: BrowserStopping},
		{Name: BrowserStopped, Src: []string{BrowserStopping}, Dst: BrowserIdle},
		{Name: BrowserExit, Src: []string{BrowserRunning}, Dst: BrowserExited},
		{Name: BrowserHang, Src: []string{BrowserRunning}, Dst: BrowserExited},
		{Name: BrowserSettle, Src: []string{BrowserExited}, Dst: BrowserIdle},
	},
}

// NewBrowserMachine builds a browser machine in state idle.
func NewBrowserMachine(observe func(Transition)) *Machine {
	return New(BrowserSpec, observe)
}
