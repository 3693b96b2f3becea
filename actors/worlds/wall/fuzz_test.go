package wall

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/cdpvisor/cdpvisor/transport"
)

// wallWorld is a world whose context is W and whose client made MADE.
type wallWorld struct{ benchWorld }

func (wallWorld) Name() string        { return "wall" }
func (wallWorld) Owns(id string) bool { return id == "MADE" }
func (wallWorld) Made() []string      { return []string{"MADE"} }

// chromiumParam is a request's params member as Chromium reads it: keys
// matched exactly, the last of duplicates winning.
func chromiumParam(msg []byte, key string) (json.RawMessage, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil {
		return nil, false
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(top["params"], &params) != nil {
		return nil, false
	}
	v, ok := params[key]
	return v, ok
}

// FuzzWorldWall: what the wall lets through of a request taking a context
// names, as Chromium reads it, only the world's contexts; what it does not
// read it lets through untouched; and it never panics.
func FuzzWorldWall(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"method":"Storage.getCookies","params":{}}`,
		`{"id":2,"method":"Storage.getCookies","params":{"browserContextId":"W"}}`,
		`{"id":3,"method":"Storage.getCookies","params":{"browserContextId":"OTHER"}}`,
		`{"id":4,"method":"Storage.getCookies","params":{"browserContextId":"OLD"}}`,
		`{"id":5,"method":"Browser.setDownloadBehavior","params":{"behavior":"allow","browserContextId":"MADE"},"sessionId":"S"}`,
		`{"id":6,"method":"Storage.getCookies","params":{"browserContextId":"OTHER","BrowserContextId":"W"}}`,
		`{"id":7,"method":"Storage.getCookies","params":{"browserContextId":"OTHER"},"params":{}}`,
		`{"id":8,"method":"Runtime.evaluate","params":{"expression":"1"}}`,
		`{"id":9,"method":"Target.createTarget","params":{"url":"about:blank"}}`,
		`{"method":"Storage.getCookies","params":{"browserContextId":"OTHER"}}`,
		`{"id":10,"method":"Storage.getCookies","params":null}`,
		`{"id":11,"method":"Storage.getCookies","params":{"browserContextId":"OTHER"},"Params":{"browserContextId":"W"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		wall := New(wallWorld{}, "W", 2)
		wall.former["OLD"] = true
		in := bytes.Clone(msg)
		out, ok := wall.Replay(msg)
		if !bytes.Equal(msg, in) {
			t.Fatalf("Replay changed its input: %q", msg)
		}
		h, err := transport.ScanHead(msg)
		if err != nil || ruleOf(&h) == passes {
			if !ok || !bytes.Equal(out, msg) {
				t.Fatalf("a request the wall does not read was changed or stopped: %q → %q, %v", msg, out, ok)
			}
			return
		}
		if !ok {
			return
		}
		if ruleOf(&h) != namesContext {
			t.Fatalf("a walled request of another kind passed as a subscription: %q", msg)
		}
		oh, err := transport.ScanHead(out)
		if err != nil || !bytes.Equal(oh.Method, h.Method) {
			t.Fatalf("the wall changed the method: %q → %q", msg, out)
		}
		raw, named := chromiumParam(out, "browserContextId")
		if !named {
			t.Fatalf("a request taking a context left the wall naming none: %q → %q", msg, out)
		}
		var id string
		if json.Unmarshal(raw, &id) != nil || !wall.owns(id) {
			t.Fatalf("the wall let through a request Chromium reads as naming context %s: %q → %q", raw, msg, out)
		}
	})
}
