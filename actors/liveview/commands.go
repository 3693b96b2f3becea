package liveview

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// command is what a viewer's page sends.
type command struct {
	Type     string      `json:"type"` // watch, take, hand_back, input, text, navigate, back, forward, reload, done, assign
	Instance string      `json:"instance"`
	World    string      `json:"world"`
	Page     string      `json:"page"`
	URL      string      `json:"url"`
	Text     string      `json:"text"`
	Request  int         `json:"request"`
	Note     string      `json:"note"`
	Input    *inputEvent `json:"input"`
}

func (r *run) command(v *viewer, c command) {
	if !r.viewers[v] {
		return
	}
	switch c.Type {
	case "watch":
		r.watchPage(v, pageKey{c.Instance, c.Page})
	case "take":
		r.take(v, holdKey{c.Instance, c.World})
	case "hand_back":
		k := holdKey{c.Instance, c.World}
		if r.holders[k] == v {
			r.handBack(k)
			r.pushState()
		}
	case "done":
		r.answerHuman(v, c.Request, c.Note)
	case "assign":
		r.assignHuman(v, c.Request, c.Instance, c.World)
	case "input", "text", "navigate", "back", "forward", "reload":
		r.drive(v, c)
	default:
		v.sendError(fmt.Sprintf("unknown command %q", c.Type))
	}
}

func (r *run) watchPage(v *viewer, k pageKey) {
	old := v.watching
	v.watching = k
	r.recastKey(old)
	r.recastKey(k)
	if in := r.instances[k.instance]; in != nil {
		if p := in.pages[k.page]; p != nil && p.frame != nil {
			b, _ := json.Marshal(frameView{Type: "frame", Instance: in.ID, Page: p.id, Width: p.frame.width, Height: p.frame.height, Offset: p.frame.offset, Data: p.frame.data})
			v.send(b)
		}
	}
}

// take gives a viewer a world: its agents' input and navigation wait.
func (r *run) take(v *viewer, k holdKey) {
	if r.instances[k.instance] == nil {
		v.sendError("no such instance")
		return
	}
	if h := r.holders[k]; h != nil && h != v {
		v.sendError(worldWords(k.world) + " is taken over by another viewer")
		return
	}
	r.holders[k] = v
	r.gate(k).take()
	r.events.add(event{Instance: k.instance, Kind: "takeover", Text: "a human took over " + worldWords(k.world) + ": its agents' input and navigation wait"})
	r.log.Info().Str("instance", k.instance).Str("world", k.world).Msg("a human took over a world")
	if on := r.a.spec.OnHold; on != nil {
		on(k.instance, k.world, true)
	}
	r.pushState()
}

func (r *run) handBack(k holdKey) {
	delete(r.holders, k)
	if g := r.gates[k]; g != nil {
		g.handBack()
	}
	r.events.add(event{Instance: k.instance, Kind: "hand_back", Text: worldWords(k.world) + " handed back to its agents"})
	r.log.Info().Str("instance", k.instance).Str("world", k.world).Msg("a human handed a world back")
	if on := r.a.spec.OnHold; on != nil {
		on(k.instance, k.world, false)
	}
}

// drive sends a viewer's input or navigation to a page of a world it holds,
// through the live view's own session (never held).
func (r *run) drive(v *viewer, c command) {
	in := r.instances[c.Instance]
	if in == nil || in.session == nil {
		v.sendError("that page's browser is not running")
		return
	}
	p := in.pages[c.Page]
	if p == nil || p.session == "" {
		v.sendError("that page is gone")
		return
	}
	if r.holders[holdKey{in.ID, r.worldOf(in, p)}] != v {
		v.sendError("take over " + worldWords(r.worldOf(in, p)) + " first")
		return
	}
	send := func(method string, params any) { in.session.SendTo(p.session, method, params) }
	switch c.Type {
	case "input":
		if c.Input == nil {
			return
		}
		if method, params, ok := c.Input.cdp(p.frame); ok {
			send(method, params)
		}
	case "text":
		if c.Text != "" {
			send("Input.insertText", map[string]any{"text": c.Text})
		}
	case "navigate":
		u := strings.TrimSpace(c.URL)
		if !strings.Contains(u, "://") && !strings.HasPrefix(u, "about:") && !strings.HasPrefix(u, "data:") {
			u = "https://" + u
		}
		if _, err := url.Parse(u); err != nil || u == "https://" {
			v.sendError("not a URL: " + c.URL)
			return
		}
		send("Page.navigate", map[string]any{"url": u})
	case "back":
		send("Runtime.evaluate", map[string]any{"expression": "history.back()"})
	case "forward":
		send("Runtime.evaluate", map[string]any{"expression": "history.forward()"})
	case "reload":
		send("Page.reload", nil)
	}
}
