package recorder

import (
	"cmp"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// What the recorder hears of the other features, each a hook they call
// (it never waits: a note is queued or dropped and counted).

// HoldHook marks a human's takeover of a world, and its hand-back
// (liveview.Spec.OnHold).
func (a *Actor) HoldHook() func(instance, world string, held bool) {
	return func(_, world string, held bool) {
		m := pwtrace.Mark{Kind: "takeover", Title: "a human took the world over: its agents' input and navigation wait", Start: time.Now()}
		if !held {
			m.Kind, m.Title = "handback", "the human handed the world back to its agents"
		}
		a.give(note{world: world, kind: kindMark, at: m.Start, v: m})
	}
}

// HumanHook marks a request_human: an agent asked a human for help, the
// reason it gave, and what the human answered (liveview.Spec.OnHuman).
func (a *Actor) HumanHook() func(world, reason, answer string, asked, answered time.Time) {
	return func(world, reason, answer string, asked, answered time.Time) {
		m := pwtrace.Mark{Kind: "request_human", Title: "request_human: {reason}", Start: asked, End: answered,
			Params: map[string]string{"reason": cut(reason), "answer": cut(answer)}}
		a.give(note{world: world, kind: kindMark, at: m.Start, v: m})
	}
}

// DownloadHook keeps a world's download once it finished or was canceled,
// from when it began (downloads.Spec.OnDownload).
func (a *Actor) DownloadHook() func(e downloads.Entry) {
	return func(e downloads.Entry) {
		if e.Context != "" { // else no world's
			a.give(note{world: e.Context, kind: kindDownload, at: time.Now(), v: e})
		}
	}
}

// beganDownload is a download under way: when it began, from where, its
// name.
type beganDownload struct {
	start     time.Time
	url, file string
}

// download keeps a download that is over; one beginning is remembered.
// A download is told twice when the downloads feature tracks it (its
// hook) and once when a client set its own download behaviour (the
// recorded page's events alone): it is kept once, by id.
func (r *run) download(n note, e downloads.Entry) {
	if r.downloaded[e.ID] {
		return
	}
	began, ok := r.downloads[e.ID]
	if !e.Finished() {
		if !ok && len(r.downloads) < maxPending {
			r.downloads[e.ID] = beganDownload{start: n.at, url: e.URL, file: e.Filename}
		}
		return
	}
	delete(r.downloads, e.ID)
	if !ok {
		began.start = n.at
	}
	if len(r.downloaded) >= maxPending {
		clear(r.downloaded)
	}
	r.downloaded[e.ID] = true
	d := pwtrace.Download{URL: cut(cmp.Or(e.URL, began.url)), FileName: cmp.Or(e.Filename, began.file), Start: began.start, End: n.at}
	if e.State != downloads.Completed {
		d.FileName += " (" + e.State + ")"
	}
	r.keep(n.world, kindDownload, began.start, d, nil)
}
