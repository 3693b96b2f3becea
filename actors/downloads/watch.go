package downloads

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// Watch wraps a client's connection to the browser (the ProxyActor wraps
// each relay's) so the actor hears when the client sets a download
// behaviour of its own: for that context the client's choice wins and
// cdpvisor neither overrides it nor tracks its downloads. When the
// connection closes, Chromium undoes the client's setting and cdpvisor's
// applies again.
func (a *Actor) Watch(c transport.Conn) transport.Conn { return &watchedConn{Conn: c, a: a} }

// watchedConn looks at what a client writes to the browser; only a small
// message naming setDownloadBehavior is decoded.
type watchedConn struct {
	transport.Conn
	a      *Actor
	set    atomic.Bool // it set a download behaviour: its close is news
	closed sync.Once
}

// tellTimeout bounds how long a client's command waits for the actor.
const tellTimeout = time.Second

// maxBehaviourCommand: a Browser.setDownloadBehavior is far smaller.
const maxBehaviourCommand = 8 << 10

var behaviourMethod = []byte("setDownloadBehavior")

func (w *watchedConn) Write(msg []byte, binary bool) error {
	if len(msg) <= maxBehaviourCommand && bytes.Contains(msg, behaviourMethod) {
		w.look(msg)
	}
	return w.Conn.Write(msg, binary)
}

// look tells the actor before the browser gets the command, so the actor
// never sets its own behaviour over the client's afterwards.
func (w *watchedConn) look(msg []byte) {
	var cmd struct {
		Method string `json:"method"`
		Params struct {
			BrowserContextID string `json:"browserContextId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &cmd) != nil || cmd.Method != "Browser.setDownloadBehavior" {
		return
	}
	w.set.Store(true)
	w.a.tell(clientSet{conn: w, context: cmd.Params.BrowserContextID})
}

func (w *watchedConn) Close(code int, reason string) {
	w.Conn.Close(code, reason)
	if w.set.Load() {
		w.closed.Do(func() { w.a.tell(clientGone{conn: w}) })
	}
}

// tell sends the actor news from a connection, waiting a little at most.
func (a *Actor) tell(m request) {
	ctx, cancel := context.WithTimeout(context.Background(), tellTimeout)
	defer cancel()
	select {
	case a.mailbox <- m:
	case <-ctx.Done():
		a.spec.Log.Warn().Msgf("the downloads actor did not take a %T within %s", m, tellTimeout)
	}
}
