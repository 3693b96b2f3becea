package relay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// bidiSetup keeps a BiDi client's session: the capabilities it asked for,
// what it added to the session in order, and the browsing contexts it was
// told of. On the next browser the session is made again with the same
// capabilities and everything added again; the ids the client holds are
// mapped to the new ones in the requests that name them.
type bidiSetup struct {
	session  json.RawMessage       // session.new's params, once a browser accepted them
	asked    map[int64]bidiRequest // kept requests on their way, by the client's id
	held     []heldResource        // what the client added, in order
	alias    map[string]string     // an id the client holds -> that resource's id in this browser
	contexts *contextBook          // the browsing contexts the client was told of
	log      zerolog.Logger

	// the bootstrap
	sessionReq int64         // the relay's own session.new
	replaying  map[int64]int // the relay's own requests -> index in held
}

type bidiRequest struct {
	method string
	params json.RawMessage
}

// heldResource is one thing the client added; id is what the client knows
// it by ("" for an unsubscribe by event names, replayed in its place).
type heldResource struct {
	kind   *bidiResource
	method string
	params json.RawMessage
	id     string
	lost   bool // the next browser refused it
}

// bidiCommand is a BiDi command as the setup reads and writes it.
type bidiCommand struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func (s *bidiSetup) queued(*transport.Head, []byte) {}

func (s *bidiSetup) sent(h *transport.Head, msg *transport.Message) watching {
	var c bidiCommand
	if json.Unmarshal(msg.B, &c) != nil {
		return unwatched // the browser answers it with the error
	}
	if k := resourceRemoved(h); k != nil {
		if k.many && !hasMember(c.Params, k.removeBy) {
			// An unsubscribe by event names: replayed in its place.
			s.asked[h.ID] = bidiRequest{method: c.Method, params: c.Params}
			return watchAfter
		}
		if rewritten, ok := s.removeHeld(k, &c); ok {
			msg.B = append(msg.B[:0], rewritten...)
		}
		return unwatched
	}
	s.asked[h.ID] = bidiRequest{method: c.Method, params: c.Params}
	return watchAfter
}

// removeHeld forgets the resources a remove request names and rewrites
// their ids to this browser's, if they differ.
func (s *bidiSetup) removeHeld(k *bidiResource, c *bidiCommand) ([]byte, bool) {
	var params map[string]json.RawMessage
	if json.Unmarshal(c.Params, &params) != nil {
		return nil, false
	}
	var ids []string
	if k.many {
		_ = json.Unmarshal(params[k.removeBy], &ids)
	} else {
		var id string
		_ = json.Unmarshal(params[k.removeBy], &id)
		ids = []string{id}
	}
	mapped, changed := make([]string, len(ids)), false
	for i, id := range ids {
		mapped[i] = id
		if a, ok := s.alias[id]; ok {
			mapped[i], changed = a, a != id
			delete(s.alias, id)
		}
	}
	s.held = slices.DeleteFunc(s.held, func(r heldResource) bool { return r.kind == k && slices.Contains(ids, r.id) })
	if !changed {
		return nil, false
	}
	if k.many {
		params[k.removeBy] = encode(mapped)
	} else {
		params[k.removeBy] = encode(mapped[0])
	}
	return command(c.ID, c.Method, encode(params)), true
}

func (s *bidiSetup) answered(h *transport.Head, msg []byte) {
	req, ok := s.asked[h.ID]
	delete(s.asked, h.ID)
	if !ok || h.HasError {
		return
	}
	switch {
	case req.method == "session.new":
		s.session = req.params
	case req.method == "session.end":
		s.forget()
	case req.method == "browsingContext.getTree":
		s.contexts.learnTree(msg)
	default:
		k := resourceAddedBy(req.method)
		if k == nil { // an unsubscribe by event names
			s.held = append(s.held, heldResource{method: req.method, params: req.params})
			return
		}
		id := resultMember(msg, k.result)
		s.held = append(s.held, heldResource{kind: k, method: req.method, params: req.params, id: id})
	}
}

// forget drops the session: the client ended it.
func (s *bidiSetup) forget() {
	s.session, s.held = nil, nil
	clear(s.alias)
}

// farewell ends the client's session: Firefox keeps a session whose
// socket closed, and holds one session at a time, so the next client's
// session.new would fail ("Maximum number of active sessions").
func (s *bidiSetup) farewell(id int64) []byte {
	if s.session == nil {
		return nil
	}
	return command(id, "session.end", nil)
}

func (s *bidiSetup) event(h *transport.Head, msg []byte) { s.contexts.note(h, msg) }

// answeredWhileGone: closing the browser that is gone, or ending the
// session it held, is done already.
func (s *bidiSetup) answeredWhileGone(h *transport.Head, _ bool) bool {
	switch {
	case h.Is("browser.close"):
		return true
	case h.Is("session.end"):
		s.forget()
		return true
	}
	return false
}

func (s *bidiSetup) gone() [][]byte {
	clear(s.asked) // sent again to the next browser, and seen again then
	if !s.subscribedTo("browsingContext", "browsingContext.contextDestroyed") {
		s.contexts.clear()
		return nil
	}
	return s.contexts.goneEvents()
}

// subscribedTo says whether the client subscribed to event, by its name or
// its module's.
func (s *bidiSetup) subscribedTo(module, event string) bool {
	for _, r := range s.held {
		if r.kind == nil || r.kind.add != "session.subscribe" {
			continue
		}
		var p struct{ Events []string }
		_ = json.Unmarshal(r.params, &p)
		if slices.Contains(p.Events, event) || slices.Contains(p.Events, module) {
			return true
		}
	}
	return false
}

func (s *bidiSetup) bootstrap(next func() int64) []ownRequest {
	clear(s.replaying)
	if s.session == nil {
		return s.replayed(next)
	}
	s.sessionReq = next()
	return []ownRequest{{id: s.sessionReq, msg: command(s.sessionReq, "session.new", s.session)}}
}

// replayed is everything the client added, again, in order.
func (s *bidiSetup) replayed(next func() int64) []ownRequest {
	out := make([]ownRequest, 0, len(s.held))
	for i, r := range s.held {
		id := next()
		s.replaying[id] = i
		out = append(out, ownRequest{id: id, msg: command(id, r.method, r.params)})
	}
	return out
}

func (s *bidiSetup) bootstrapAnswer(h *transport.Head, msg []byte, next func() int64) ([]ownRequest, error) {
	if h.ID == s.sessionReq {
		if h.HasError {
			return nil, fmt.Errorf("the new browser refused the client's session.new: %s", truncate(msg, 300))
		}
		return s.replayed(next), nil
	}
	i, ok := s.replaying[h.ID]
	if !ok {
		return nil, nil
	}
	delete(s.replaying, h.ID)
	r := &s.held[i]
	if h.HasError {
		// Made for a context of the lost browser, say: the client's id for
		// it now names nothing, as the context it was for.
		r.lost = true
		s.log.Warn().Str("method", r.method).Str("answer", string(truncate(msg, 200))).Msg("the next browser refused what the client had added")
	} else if r.kind != nil {
		s.alias[r.id] = resultMember(msg, r.kind.result)
	}
	if len(s.replaying) == 0 {
		s.held = slices.DeleteFunc(s.held, func(r heldResource) bool { return r.lost })
	}
	return nil, nil
}

// command encodes a BiDi command; params go as the client wrote them.
func command(id int64, method string, params json.RawMessage) []byte {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	return fmt.Appendf(nil, `{"id":%d,"method":%s,"params":%s}`, id, encode(method), params)
}

// encode is JSON without json.Marshal's HTML escaping: what the client
// wrote is passed on unchanged.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// resultMember is a string member of an answer's result.
func resultMember(msg []byte, name string) string {
	var a struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	var v string
	if json.Unmarshal(msg, &a) == nil {
		_ = json.Unmarshal(a.Result[name], &v)
	}
	return v
}

func hasMember(obj json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(obj, &m)
	_, ok := m[name]
	return ok
}
