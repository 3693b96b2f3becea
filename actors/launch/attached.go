package launch

import "github.com/cdpvisor/cdpvisor/actors/launch/proc"

// attached is the Host of a browser cdpvisor found running: it is never
// killed and its profile never removed; Stop and Detach only let go.
type attached struct {
	exited   chan struct{}
	stopPoll chan struct{} // ends the watch
	identity func(Facts) proc.BrowserIdentity
}

// Attached is the Process of a browser found running with facts f (Attached
// is set). watch returns once the browser is gone or stop is closed;
// identity names it for the watchdog and the reaper.
func Attached(f Facts, watch func(stop <-chan struct{}), identity func(Facts) proc.BrowserIdentity) *Process {
	f.Attached = true
	a := &attached{exited: make(chan struct{}), stopPoll: make(chan struct{}), identity: identity}
	go func() { // owned: ends when the browser goes or Stop/Detach lets go
		defer close(a.exited)
		watch(a.stopPoll)
	}()
	return NewProcess(f, a)
}

func (a *attached) Exited() <-chan struct{}               { return a.exited }
func (a *attached) ExitStatus() proc.ExitStatus           { return proc.ExitStatus{Code: -1} }
func (a *attached) Kill() error                           { return nil }
func (a *attached) Stop(Facts) error                      { a.Detach(); return nil }
func (a *attached) Identity(f Facts) proc.BrowserIdentity { return a.identity(f) }

// Detach ends the watch; the browser runs on.
func (a *attached) Detach() {
	close(a.stopPoll)
	<-a.exited
}
