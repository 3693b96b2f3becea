package downloads

import "github.com/cdpvisor/cdpvisor/actors/actor"

// What the actor does with the requests of its callers and the news from
// watched client connections.

// request is what the actor's mailbox carries: a closed set, the types of
// actor.go's list and no others, each with its case in handle.
type request interface{ isDownloadsRequest() }

func (listDownloads) isDownloadsRequest() {}
func (waitFor) isDownloadsRequest()       {}
func (stopWaiting) isDownloadsRequest()   {}
func (clientSet) isDownloadsRequest()     {}
func (clientGone) isDownloadsRequest()    {}

func (r *run) handle(m request) {
	switch m := m.(type) {
	case listDownloads:
		m.reply <- r.a.table.entries(m.world)
	case waitFor:
		m.reply <- r.startWait(m.w)
	case stopWaiting:
		delete(r.waiters, m.w)
		var cur *Entry
		if rec, ok := r.a.table.byID[m.w.id]; ok {
			e := rec.Entry
			cur = &e
		}
		m.reply <- cur
	case clientSet:
		key := m.context
		if key == r.ctxs.defaultID {
			key = ""
		}
		r.a.clients.set(m.conn, key)
		r.log.Debug().Str("context", key).Msg("a client set its own download behaviour: its choice wins, its downloads are not tracked")
	case clientGone:
		for _, context := range r.a.clients.gone(m.conn) {
			r.reapplyCtx[context] = true
		}
		if len(r.reapplyCtx) > 0 {
			r.reapply.Reset(settleDelay)
		}
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

// reapplyDue sets cdpvisor's behaviour again where a client's ended.
func (r *run) reapplyDue() {
	for context := range r.reapplyCtx {
		if !r.a.clients.held(context) && (context == "" || r.ctxs.created[context]) {
			r.setBehaviour(context)
		}
	}
	clear(r.reapplyCtx)
}
