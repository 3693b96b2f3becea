package relay

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cdpvisor/cdpvisor/transport"
)

// contextBook remembers the browsing contexts a BiDi client was told of,
// from the browser's contextCreated and contextDestroyed events and from
// the answers to its browsingContext.getTree, so that when the browser goes
// the client can be told they are gone. Only these are decoded.
//
// getTree is the only way a client learns of a context that was there
// before it subscribed, such as a fresh Firefox's first tab: Firefox sends
// no contextCreated for it then. Puppeteer asks getTree before it
// subscribes and makes a page of each context listed.
type contextBook struct {
	info   map[string]json.RawMessage // by context id: contextCreated's params, or the context's getTree entry
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

// learnTree books the contexts a browsingContext.getTree answer lists, its
// nested ones with their parent. Each is kept as contextCreated gives it
// (children null: the book knows each child on its own), with the info of
// now, which is what its contextDestroyed would carry.
func (b *contextBook) learnTree(msg []byte) {
	var a struct {
		Result struct {
			Contexts []json.RawMessage `json:"contexts"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &a) != nil {
		return
	}
	for _, info := range a.Result.Contexts {
		b.learnInfo(info, "")
	}
}

// learnInfo books one context of a getTree answer and those nested in it;
// parent is the context it was nested in, if any.
func (b *contextBook) learnInfo(raw json.RawMessage, parent string) {
	var info map[string]json.RawMessage
	var id string
	if json.Unmarshal(raw, &info) != nil || json.Unmarshal(info["context"], &id) != nil || id == "" {
		return
	}
	var p *string
	if json.Unmarshal(info["parent"], &p) == nil && p != nil && *p != "" {
		parent = *p // the root of a subtree (getTree with root) names its parent
	}
	var children []json.RawMessage
	_ = json.Unmarshal(info["children"], &children)
	info["children"] = json.RawMessage("null")
	b.info[id] = encode(info)
	if parent != "" {
		b.parent[id] = parent
	}
	for _, child := range children {
		b.learnInfo(child, id)
	}
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
