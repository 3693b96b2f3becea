package journal

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/guard"
)

// What the journal hears of the other features, each a hook they call; nil
// when the journal is off (a nil *Actor), so they call nothing.

// HostHook records a guarded world's host counts when they are news
// (worlds.Spec.OnHost).
func (a *Actor) HostHook() func(world, host string, n guard.HostCount) {
	if a == nil {
		return nil
	}
	return func(world, host string, n guard.HostCount) {
		a.Record(Entry{World: world, Kind: KindHost, Host: host, Reached: int64(n.Reached), Denied: int64(n.Denied)})
	}
}

// HoldHook records a human's takeover of a world, and its hand-back
// (liveview.Spec.OnHold).
func (a *Actor) HoldHook() func(instance, world string, held bool) {
	if a == nil {
		return nil
	}
	return func(_, world string, held bool) {
		note := "a human took the world over: its agents' input and navigation wait"
		if !held {
			note = "handed back to the world's agents"
		}
		a.Record(Entry{World: world, Kind: KindTakeover, Note: note})
	}
}

// DownloadHook records a world's download beginning and finishing: its
// URL, file name and state (downloads.Spec.OnDownload).
func (a *Actor) DownloadHook() func(e downloads.Entry) {
	if a == nil {
		return nil
	}
	return func(e downloads.Entry) {
		if e.Context == "" {
			return // no world's
		}
		note := e.State + ": " + e.Filename
		if e.State == downloads.Completed {
			note += fmt.Sprintf(" (%d bytes)", e.ReceivedBytes)
		}
		a.Record(Entry{World: e.Context, Kind: KindDownload, URL: e.URL, Note: note})
	}
}
