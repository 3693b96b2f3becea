package liveview

import (
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// recentEvents is how many events the page shows.
const recentEvents = 50

// event is one line of the page's recent events.
type event struct {
	At       time.Time `json:"at"`
	Instance string    `json:"instance"`
	Kind     string    `json:"kind"` // launch, relaunch, ready, crash, hang, exit, launch_failed, world_opened, world_closed, takeover, hand_back, human_asked, human_answered
	Text     string    `json:"text"`
}

// eventRing keeps the last recentEvents, oldest first; the actor's alone.
type eventRing struct{ list []event }

func (r *eventRing) add(e event) {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	r.list = append(r.list, e)
	if len(r.list) > recentEvents {
		r.list = append(r.list[:0], r.list[len(r.list)-recentEvents:]...)
	}
}

// browserEvent is a BrowserActor's event as the page tells it; false: not
// shown.
func browserEvent(ev browser.Event) (event, bool) {
	switch ev := ev.(type) {
	case browser.Starting:
		kind := "launch"
		if ev.Generation > 1 {
			kind = "relaunch"
		}
		return event{Instance: ev.Instance, Kind: kind, Text: fmt.Sprintf("browser generation %d starting", ev.Generation)}, true
	case browser.Ready:
		return event{Instance: ev.Endpoint.Instance, Kind: "ready", Text: fmt.Sprintf("browser generation %d ready, pid %d", ev.Endpoint.Generation, ev.Endpoint.Pid)}, true
	case browser.LaunchFailed:
		return event{Instance: ev.Instance, Kind: "launch_failed", Text: fmt.Sprintf("launch failed: %v", ev.Err)}, true
	case browser.Exited:
		kind := "exit"
		switch ev.Record.Cause {
		case browser.CauseCrash, browser.CauseGone:
			kind = "crash"
		case browser.CauseHung:
			kind = "hang"
		}
		text := fmt.Sprintf("browser pid %d exited (%s)", ev.Pid, ev.Record.Cause)
		if ev.Record.Signal != "" {
			text += ", " + ev.Record.Signal
		}
		return event{Instance: ev.Instance, Kind: kind, Text: text}, true
	}
	return event{}, false
}
