package recorder

import (
	"encoding/json"
	"strings"
	"testing"
)

// An action keeps only what the journal's privacy rule allows: a
// navigation's URL, a mouse event's kind, button and point, a key event's
// kind and a key that names no character; never an expression, a
// function, typed text or a file's path.
func TestActionsKeepNoSecret(t *testing.T) {
	const secret = "hunter2-secret"
	cases := []struct {
		method, params string
		action         bool
		want           map[string]string
		point          bool
	}{
		{"Page.navigate", `{"url":"http://127.0.0.1:1/a"}`, true, map[string]string{"url": "http://127.0.0.1:1/a"}, false},
		{"Runtime.evaluate", `{"expression":"login('` + secret + `')"}`, true, nil, false},
		{"Runtime.callFunctionOn", `{"functionDeclaration":"() => '` + secret + `'","arguments":[{"value":"` + secret + `"}]}`, true, nil, false},
		{"Input.insertText", `{"text":"` + secret + `"}`, true, nil, false},
		{"Input.dispatchKeyEvent", `{"type":"keyDown","key":"h","text":"h"}`, true, map[string]string{"type": "keyDown"}, false},
		{"Input.dispatchKeyEvent", `{"type":"keyDown","key":"Enter","text":"\r"}`, true, map[string]string{"type": "keyDown", "key": "Enter"}, false},
		{"Input.dispatchMouseEvent", `{"type":"mousePressed","x":10,"y":20,"button":"left","clickCount":1}`, true,
			map[string]string{"type": "mousePressed", "button": "left", "clickCount": "1"}, true},
		{"DOM.setFileInputFiles", `{"files":["/home/u/` + secret + `"]}`, true, nil, false},
		{"Network.setCookie", `{"name":"sid","value":"` + secret + `"}`, false, nil, false},
		{"Runtime.enable", `{}`, false, nil, false},
	}
	for _, c := range cases {
		if got := isAction([]byte(c.method)); got != c.action {
			t.Errorf("%s: isAction %v, want %v", c.method, got, c.action)
		}
		act := actionOf(c.method, []byte(`{"id":1,"method":"`+c.method+`","params":`+c.params+`}`))
		kept, _ := json.Marshal(act)
		if strings.Contains(string(kept), secret) {
			t.Errorf("%s: the action keeps the secret: %s", c.method, kept)
		}
		if len(act.Params) != len(c.want) {
			t.Errorf("%s: params %v, want %v", c.method, act.Params, c.want)
		}
		for k, v := range c.want {
			if act.Params[k] != v {
				t.Errorf("%s: params[%s] = %q, want %q", c.method, k, act.Params[k], v)
			}
		}
		if (act.Point != nil) != c.point {
			t.Errorf("%s: point %v", c.method, act.Point)
		}
	}
}

// The session's reader makes a frame of a screencast frame (its JPEG
// decoded, its time the browser's), and the parts of a request of the
// Network events, with no header value but the content type.
func TestSessionReadsFramesAndRequests(t *testing.T) {
	m, ok := readSession(3, []byte(`{"method":"Page.screencastFrame","sessionId":"S","params":{"data":"/9j/4A==","sessionId":7,"metadata":{"deviceWidth":800,"deviceHeight":600,"timestamp":1796660000.25}}}`))
	f, isFrame := m.(frameNews)
	if !ok || !isFrame || f.ack != 7 || f.session != "S" || len(f.frame.JPEG) != 4 || f.frame.Width != 800 || f.frame.Time.UnixMilli() != 1796660000250 {
		t.Fatalf("frame: %#v %v", m, ok)
	}
	m, ok = readSession(3, []byte(`{"method":"Network.requestWillBeSent","sessionId":"S","params":{"requestId":"R","timestamp":10,"wallTime":1796660000,"type":"XHR",
		"request":{"url":"http://127.0.0.1:1/api","method":"POST","headers":{"Content-Type":"application/json","Authorization":"Bearer hunter2-secret"}}}}`))
	n, isNet := m.(networkNews)
	if !ok || !isNet || n.ev.reqType != "application/json" || n.ev.method != "POST" {
		t.Fatalf("request: %#v %v", m, ok)
	}
	r := &run{}
	p := &page{id: "P", requests: map[string]*pendingRequest{}}
	r.networkNews(p, n.method, n.ev)
	resp := `{"method":"Network.responseReceived","sessionId":"S","params":{"requestId":"R","timestamp":10.5,"response":{"status":201,"statusText":"Created","mimeType":"application/json","remoteIPAddress":"127.0.0.1","remotePort":1}}}`
	m, _ = readSession(3, []byte(resp))
	n = m.(networkNews)
	r.networkNews(p, n.method, n.ev)
	q := p.requests["R"]
	if q == nil || q.req.Status != 201 || q.req.Response.Sub(q.req.Start).Milliseconds() != 500 {
		t.Fatalf("after the response: %+v", q)
	}
	kept, _ := json.Marshal(q.req)
	if strings.Contains(string(kept), "hunter2") {
		t.Fatalf("a header's value is kept: %s", kept)
	}
}
