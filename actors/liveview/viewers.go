package liveview

import (
	"encoding/json"
	"time"

	"github.com/gorilla/websocket"
)

// viewer is one open /ui page: its websocket and what it watches. The
// actor owns its fields but conn and out; its handler owns the reader and
// the writer goroutine.
type viewer struct {
	id       int64
	conn     *websocket.Conn
	out      chan []byte   // to its writer; a frame that does not fit is dropped
	gone     chan struct{} // closed by its handler when it stops reading: the writer ends
	watching pageKey
	stale    bool // a state did not fit: sent again at the next tick
}

// pageKey names a page: an instance and a target id.
type pageKey struct{ instance, page string }

// viewerQueue is how many messages wait for a viewer's writer.
const viewerQueue = 32

// writeWait bounds one write to a viewer.
const writeWait = 10 * time.Second

func newViewer(id int64, conn *websocket.Conn) *viewer {
	return &viewer{id: id, conn: conn, out: make(chan []byte, viewerQueue), gone: make(chan struct{})}
}

// send queues a message without waiting; false: it did not fit.
func (v *viewer) send(b []byte) bool {
	select {
	case v.out <- b:
		return true
	default:
		return false
	}
}

func (v *viewer) sendError(text string) {
	b, _ := json.Marshal(map[string]string{"type": "error", "text": text})
	v.send(b)
}

// end closes the viewer's socket (safe from any goroutine): its handler
// sees the end and leaves.
func (v *viewer) end(reason string) {
	_ = v.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, reason), time.Now().Add(time.Second))
	_ = v.conn.Close()
}

// write sends what is queued until the handler is gone or a write fails.
func (v *viewer) write() {
	for {
		select {
		case <-v.gone:
			return
		case b := <-v.out:
			_ = v.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := v.conn.WriteMessage(websocket.TextMessage, b); err != nil {
				_ = v.conn.Close() // the reader ends, and the handler with it
				return
			}
		}
	}
}

// join starts what a first viewer needs: the sessions (and so the
// screencasts) and the facts.
func (r *run) join(v *viewer) {
	first := len(r.viewers) == 0
	r.viewers[v] = true
	hello, _ := json.Marshal(map[string]any{"type": "hello", "you": v.id})
	v.send(hello)
	if first {
		for _, id := range r.order {
			r.startSession(r.instances[id])
		}
		r.gather()
	}
	if r.lastState != nil && v.send(r.lastState) {
		return
	}
	v.stale = true
}

// leave forgets a viewer: what it held is handed back, and with the last
// one the sessions close, and every screencast with them.
func (r *run) leave(v *viewer) {
	if !r.viewers[v] {
		return
	}
	delete(r.viewers, v)
	for k, h := range r.holders {
		if h == v {
			r.handBack(k) // nobody drives it any more: the agents go on
		}
	}
	old := v.watching
	v.watching = pageKey{}
	if len(r.viewers) == 0 {
		for _, id := range r.order {
			r.endSession(r.instances[id])
		}
		r.lastState = nil
		return
	}
	r.recastKey(old)
	r.pushState()
}

// recastKey sets a page's screencast as its viewers want now.
func (r *run) recastKey(k pageKey) {
	if in := r.instances[k.instance]; in != nil && in.session != nil {
		if p := in.pages[k.page]; p != nil {
			r.recast(in, p)
		}
	}
}
