package downloads

import (
	"encoding/json"
	"slices"
)

// What the actor does with the browser's news on its session: target
// discovery (which context each target is in, which contexts clients
// made), its download events, and the answers to its commands.

func (r *run) onCDP(msg cdpMessage) {
	if msg.ID != 0 {
		r.answered(msg)
		return
	}
	switch msg.Method {
	case "Target.targetCreated", "Target.targetInfoChanged":
		var p struct {
			TargetInfo struct {
				TargetID         string `json:"targetId"`
				BrowserContextID string `json:"browserContextId"`
			} `json:"targetInfo"`
		}
		if json.Unmarshal(msg.Params, &p) == nil {
			r.targetSeen(p.TargetInfo.TargetID, p.TargetInfo.BrowserContextID)
		}
	case "Target.targetDestroyed":
		var p struct {
			TargetID string `json:"targetId"`
		}
		if json.Unmarshal(msg.Params, &p) == nil {
			delete(r.ctxs.targets, p.TargetID)
		}
	case "Browser.downloadWillBegin":
		var p struct {
			FrameID           string `json:"frameId"`
			GUID              string `json:"guid"`
			URL               string `json:"url"`
			SuggestedFilename string `json:"suggestedFilename"`
		}
		if json.Unmarshal(msg.Params, &p) == nil && p.GUID != "" {
			r.began(p.FrameID, p.GUID, p.URL, p.SuggestedFilename)
		}
	case "Browser.downloadProgress":
		var p struct {
			GUID          string  `json:"guid"`
			TotalBytes    float64 `json:"totalBytes"`
			ReceivedBytes float64 `json:"receivedBytes"`
			State         string  `json:"state"`
			FilePath      string  `json:"filePath"`
		}
		if json.Unmarshal(msg.Params, &p) == nil {
			r.progressed(p.GUID, int64(p.ReceivedBytes), int64(p.TotalBytes), p.State, p.FilePath)
		}
	}
}

func (r *run) answered(msg cdpMessage) {
	c, ok := r.pending[msg.ID]
	if !ok {
		return
	}
	delete(r.pending, msg.ID)
	if msg.Error != nil {
		ev := r.log.Warn()
		if c.context != "" {
			ev = r.log.Debug() // a context closed meanwhile
		}
		ev.Str("method", c.method).Str("context", c.context).Int("code", msg.Error.Code).Str("error", msg.Error.Message).
			Msg("the browser refused a downloads command")
		return
	}
	if c.method == "Target.getBrowserContexts" {
		var res struct {
			BrowserContextIDs []string `json:"browserContextIds"`
		}
		_ = json.Unmarshal(msg.Result, &res)
		r.classify(c.contexts, res.BrowserContextIDs)
	}
}

// targetSeen learns a target's context; a context not seen before is
// looked up: made by a client, or the default one.
func (r *run) targetSeen(target, context string) {
	if target == "" || context == "" {
		return
	}
	r.ctxs.targets[target] = context
	if r.ctxs.known(context) {
		return
	}
	r.ctxs.checking[context] = true
	r.send(command{method: "Target.getBrowserContexts", contexts: []string{context}}, nil)
}

// classify settles the contexts being checked from the list of contexts
// clients made: those get cdpvisor's behaviour unless their client set its
// own; the one not in the list is the default context.
func (r *run) classify(checked, made []string) {
	for _, id := range checked {
		if !r.ctxs.checking[id] {
			continue
		}
		delete(r.ctxs.checking, id)
		if !slices.Contains(made, id) {
			r.ctxs.defaultID = id
			continue
		}
		r.ctxs.created[id] = true
		if r.a.spec.WorldOf != nil {
			r.askWorld(id) // its behaviour is set once its folder is known
			continue
		}
		if !r.a.clients.held(id) {
			r.setBehaviour(id)
		}
	}
}

// began records a download when cdpvisor's behaviour applies to its
// context; a client's own choice is the client's to follow.
func (r *run) began(frame, guid, url, suggested string) {
	context := r.ctxs.targets[frame]
	if r.a.clients.held(r.ctxs.key(context)) {
		r.log.Debug().Str("download", guid).Str("url", url).Msg("not tracked: a client set its own download behaviour")
		return
	}
	rec := r.a.table.begin(r.sess.Gen(), guid, url, suggested, r.ctxs.worlds[context])
	ev := r.log.Info().Str("download", guid).Str("url", url).Str("filename", rec.Filename)
	if rec.Context != "" {
		ev = ev.Str("world", rec.Context)
	}
	ev.Msg("download began")
	if on := r.a.spec.OnDownload; on != nil {
		on(rec.Entry)
	}
	for w := range r.waiters {
		if w.id == "" && rec.In(w.world) {
			w.id = guid
		}
	}
}

func (r *run) progressed(guid string, received, total int64, state, filePath string) {
	rec, finished, err := r.a.table.progress(guid, received, total, state, filePath)
	if err != nil {
		r.log.Warn().Err(err).Msg("download not renamed")
	}
	if !finished {
		return
	}
	r.log.Info().Str("download", guid).Str("state", rec.State).Str("path", rec.Path).Int64("bytes", rec.ReceivedBytes).Msg("download finished")
	if on := r.a.spec.OnDownload; on != nil {
		on(rec.Entry)
	}
	r.finished(rec)
}

// finished answers whoever waits for the download.
func (r *run) finished(rec *record) {
	for w := range r.waiters {
		if w.id == rec.ID {
			w.done <- waitEnd{entry: rec.Entry}
			delete(r.waiters, w)
		}
	}
}
