package multiplex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"unicode/utf8"

	"github.com/cdpvisor/cdpvisor/transport"
)

// members is a JSON object's top-level members as Chromium and clients
// read them (exact keys, the last of duplicates winning); nil when b is
// not an object.
func members(b []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil
	}
	return m
}

func sameMembers(a, b map[string]json.RawMessage) bool {
	return maps.EqualFunc(a, b, func(x, y json.RawMessage) bool {
		var vx, vy any
		return json.Unmarshal(x, &vx) == nil && json.Unmarshal(y, &vy) == nil && fmt.Sprint(vx) == fmt.Sprint(vy)
	})
}

// FuzzSessionRewrite: the multiplexer's session rewriting both ways. From
// the browser, the session a message is routed to is its top-level
// sessionId, and its client gets the same object without it; to the
// browser, a client's root-level message gets its session's id and keeps
// every other member.
func FuzzSessionRewrite(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"result":{},"sessionId":"S"}`,
		`{"method":"Target.attachedToTarget","params":{"sessionId":"C"},"sessionId":"S"}`,
		`{"sessionId":"S","id":1,"result":{}}`,
		`{"id":1,"result":{"v":"\",\"sessionId\":\"X"},"sessionId":"S"}`,
		`{"id":1,"result":{"v":"\\"},"sessionId":"S"}`,
		`{"id":2,"method":"Runtime.evaluate","params":{"expression":"1"}}`,
		`{}`,
		` { } `,
		`{"id":3}`,
	} {
		f.Add([]byte(seed), "S")
	}
	f.Fuzz(func(t *testing.T, b []byte, id string) {
		fromBrowser(t, b)
		toBrowser(t, b, id)
	})
}

func fromBrowser(t *testing.T, b []byte) {
	in := members(b)
	if in == nil || !utf8.Valid(b) {
		return // Chromium writes UTF-8 (encoding/json would read U+FFFD)
	}
	var want string
	if raw, ok := in["sessionId"]; ok && json.Unmarshal(raw, &want) != nil {
		return // not a string: no session of Chromium's
	}
	id, at := tailSession(b)
	var out []byte
	if at >= 0 {
		if string(id) != want {
			t.Fatalf("tailSession read session %q of %q, whose sessionId is %q", id, b, want)
		}
		out = append(bytes.Clone(b[:at]), '}')
	} else {
		h, err := transport.ScanHead(b)
		if err != nil {
			return
		}
		if string(h.SessionID) != want && !bytes.Contains(h.SessionID, []byte{'\\'}) {
			t.Fatalf("ScanHead read session %q of %q, whose sessionId is %q", h.SessionID, b, want)
		}
		out = withoutSessionID(bytes.Clone(b))
	}
	got := members(out)
	if got == nil {
		t.Fatalf("the client's copy of %q is not an object: %q", b, out)
	}
	delete(in, "sessionId")
	if _, still := got["sessionId"]; still || !sameMembers(got, in) {
		t.Fatalf("the client's copy of %q is %q", b, out)
	}
}

func toBrowser(t *testing.T, b []byte, id string) {
	in := members(b)
	if in == nil {
		return
	}
	if _, has := in["sessionId"]; has || !utf8.ValidString(id) {
		return // Session.Write sends those as they are (a child session's); Chromium's ids are hex
	}
	tag := sessionTag(id)
	head, rest, err := tagged(nil, tag, b)
	if err != nil {
		t.Fatalf("tagged refused the object %q: %v", b, err)
	}
	out := append(head, rest...)
	got := members(out)
	if got == nil {
		t.Fatalf("%q tagged is not an object: %q", b, out)
	}
	var sid string
	if json.Unmarshal(got["sessionId"], &sid) != nil || sid != id {
		t.Fatalf("%q tagged with %q reads session %q: %q", b, id, got["sessionId"], out)
	}
	delete(got, "sessionId")
	if !sameMembers(got, in) {
		t.Fatalf("%q tagged lost or changed members: %q", b, out)
	}
}
