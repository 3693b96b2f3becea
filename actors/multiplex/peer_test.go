package multiplex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// peer plays a browser on the far end of a pipe, as Chromium answers
// there: browser sessions with ids of their own, the sessionId appended
// last, child sessions attached by Target.attachToTarget.
type peer struct {
	t        testing.TB
	in       *bufio.Reader // what cdpvisor wrote
	out      *os.File
	mu       sync.Mutex
	got      []map[string]any // every message received, decoded
	sessions int
	done     chan struct{}
}

// newPeer returns a started Connection over os pipes to a peer.
func newPeer(t testing.TB) (*peer, *Connection) {
	t.Helper()
	return newPeerSpec(t, Spec{Log: zerolog.Nop()})
}

// newPeerSpec is newPeer with the Connection's Spec.
func newPeerSpec(t testing.TB, spec Spec) (*peer, *Connection) {
	t.Helper()
	toPeer, fromCdpvisor, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromPeer, toCdpvisor, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{t: t, in: bufio.NewReader(toPeer), out: toCdpvisor, done: make(chan struct{})}
	go p.serve(toPeer)
	pipe := transport.NewPipeConn(fromPeer, fromCdpvisor, func() error { fromPeer.Close(); return fromCdpvisor.Close() })
	c, err := Start(t.Context(), pipe, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); p.stop() })
	return p, c
}

// stop ends the browser side: cdpvisor sees its pipe close.
func (p *peer) stop() {
	p.out.Close()
	<-p.done
}

func (p *peer) serve(in *os.File) {
	defer close(p.done)
	defer in.Close()
	for {
		line, err := p.in.ReadBytes(0)
		if err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(line[:len(line)-1], &m); err != nil {
			p.t.Errorf("the peer got no JSON: %q", line)
			return
		}
		p.mu.Lock()
		p.got = append(p.got, m)
		p.mu.Unlock()
		p.answer(m)
	}
}

func (p *peer) send(format string, args ...any) {
	_, _ = p.out.Write(append(fmt.Appendf(nil, format, args...), 0))
}

// answer answers m as Chromium would; a session's answers end with its id.
func (p *peer) answer(m map[string]any) {
	id, _ := m["id"].(float64)
	method, _ := m["method"].(string)
	sid, _ := m["sessionId"].(string)
	params, _ := m["params"].(map[string]any)
	tail := ""
	if sid != "" {
		tail = fmt.Sprintf(`,"sessionId":%q`, sid)
	}
	switch {
	case sid == "" && method == "Browser.getVersion":
		p.send(`{"id":%d,"result":{"protocolVersion":"1.3","product":"Chrome/148.0","revision":"@abc","userAgent":"UA","jsVersion":"14"}}`, int(id))
	case sid == "" && method == "Target.getTargetInfo" && params["targetId"] == nil:
		p.send(`{"id":%d,"result":{"targetInfo":{"targetId":"BROWSER","type":"browser","title":"","url":"","attached":true}}}`, int(id))
	case sid == "" && method == "Target.getTargetInfo":
		p.send(`{"id":%d,"result":{"targetInfo":{"targetId":%q,"type":"page","title":"T","url":"about:blank"}}}`, int(id), params["targetId"])
	case sid == "" && method == "Target.attachToBrowserTarget":
		p.mu.Lock()
		p.sessions++
		s := fmt.Sprintf("S%d", p.sessions)
		p.mu.Unlock()
		p.send(`{"method":"Target.attachedToTarget","params":{"sessionId":%q,"targetInfo":{"targetId":"BROWSER","type":"browser"}}}`, s)
		p.send(`{"id":%d,"result":{"sessionId":%q}}`, int(id), s)
	case sid == "" && method == "Target.attachToTarget":
		if params["targetId"] != "PAGE" {
			p.send(`{"id":%d,"error":{"code":-32602,"message":"No target with given id found"}}`, int(id))
			return
		}
		p.send(`{"id":%d,"result":{"sessionId":"P1"}}`, int(id))
	case sid == "" && method == "Target.detachFromTarget":
		p.send(`{"method":"Target.detachedFromTarget","params":{"sessionId":%q,"targetId":"BROWSER"}}`, params["sessionId"])
		p.send(`{"id":%d,"result":{}}`, int(id))
	case sid == "" && method == "Target.getTargets":
		p.send(`{"id":%d,"result":{"targetInfos":[{"targetId":"PAGE","type":"page","title":"T","url":"about:blank"},{"targetId":"TAB","type":"tab","title":"T","url":"about:blank"}]}}`, int(id))
	case sid == "" && method == "Target.createTarget":
		p.send(`{"id":%d,"result":{"targetId":"NEW"}}`, int(id))
	case sid == "" && (method == "Target.activateTarget" || method == "Target.closeTarget"):
		if params["targetId"] != "PAGE" {
			p.send(`{"id":%d,"error":{"code":-32602,"message":"No target with given id found"}}`, int(id))
			return
		}
		p.send(`{"id":%d,"result":{}}`, int(id))
	case method == "Target.attachToTarget":
		child := "C-" + sid
		p.send(`{"method":"Target.attachedToTarget","params":{"sessionId":%q,"targetInfo":{"targetId":"PAGE","type":"page"},"waitingForDebugger":false}%s}`, child, tail)
		p.send(`{"id":%d,"result":{"sessionId":%q}%s}`, int(id), child, tail)
	case method == "Test.detachChild":
		p.send(`{"method":"Target.detachedFromTarget","params":{"sessionId":%q}%s}`, "C-"+sid, tail)
		p.send(`{"id":%d,"result":{}%s}`, int(id), tail)
	case method == "Test.flood":
		for i := range int(params["n"].(float64)) {
			p.send(`{"method":"Test.event","params":{"i":%d,"pad":"%0100d"}%s}`, i, 0, tail)
		}
	default:
		p.send(`{"id":%d,"result":{"method":%q,"session":%q}%s}`, int(id), method, sid, tail)
	}
}

// received is what the peer got, in order.
func (p *peer) received() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.got...)
}
