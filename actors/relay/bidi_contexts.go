package relay

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cdpvisor/cdpvisor/transport"
)

// contextBook remembers the browsing contexts a BiDi client was told of,
// from the browser's contextCreated and contextDestroyed events, so that
// when the browser goes the client can be told they are gone. Only these
// events are decoded.
type contextBook struct {
	info   map[string]json.RawMessage // contextCreated's params by context id
	parent map[string]string
}

func newContextBook() *contextBook {
	return &contextBook{info: map[string]json.RawMessage{}, parent: map[string]string{}}
}

func isContextEvent(h *transport.Head) bool {
	return !h.HasID && (h.Is("browsingContext.contextCreated") || h.Is("browsingContext.contextDestroyed"))
}

func (b *contextBook) note(h *transport.Head, msg []byte) {
	if !isContextEvent(h) {
		return
	}
	var ev struct {
		Params json.RawMessage `json:"params"`
	}
	var p struct {
		Context string  `json:"context"`
		Parent  *string `json:"parent"`
	}
	if json.Unmarshal(msg, &ev) != nil || json.Unmarshal(ev.Params, &p) != nil || p.Context == "" {
		return
	}
	if h.Is("browsingContext.contextCreated") {
		b.info[p.Context] = ev.Params
		if p.Parent != nil {
			b.parent[p.Context] = *p.Parent
		}
		return
	}
	b.drop(p.Context)
}

// drop forgets a context and those inside it.
func (b *contextBook) drop(id string) {
	delete(b.info, id)
	delete(b.parent, id)
	for c, p := range b.parent {
		if p == id {
			b.drop(c)
		}
	}
}

// goneEvents are what the browser sends when its top-level contexts close
// (a tab's frames go with it): one contextDestroyed each, with the info the
// client was given. The book is empty after.
func (b *contextBook) goneEvents() [][]byte {
	var top []string
	for id := range b.info {
		if _, framed := b.parent[id]; !framed {
			top = append(top, id)
		}
	}
	sort.Strings(top)
	out := make([][]byte, 0, len(top))
	for _, id := range top {
		out = append(out, fmt.Appendf(nil, `{"type":"event","method":"browsingContext.contextDestroyed","params":%s}`, b.info[id]))
	}
	b.clear()
	return out
}

func (b *contextBook) clear() {
	clear(b.info)
	clear(b.parent)
}
