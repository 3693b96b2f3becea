package multiplex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// RoundTrip answers the browser's /json surface from CDP on the root
// session, as Chromium answers it on a debugging port: a pipe has no HTTP
// server. URLs name the request's host; the endpoint rewrites them to its
// own. The protocol schema comes from the Connection's Schema. What
// Chromium serves besides (the DevTools frontend's files) a pipe cannot
// give: 404, saying so.
func (c *Connection) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	p := strings.TrimSuffix(req.URL.Path, "/")
	cmd, arg, _ := strings.Cut(strings.TrimPrefix(p, "/json/"), "/")
	if p == "/json" {
		cmd = "list"
	}
	if !strings.HasPrefix(p, "/json") {
		return reply(req, http.StatusNotFound, "text/plain", []byte("cdpvisor runs this browser over its debugging pipe, which serves no DevTools frontend; open devtoolsFrontendUrl of /json/list in a Chrome instead"))
	}
	switch cmd {
	case "version":
		return c.jsonVersion(req)
	case "list":
		return c.jsonList(req)
	case "new":
		if req.Method != http.MethodPut {
			return reply(req, http.StatusMethodNotAllowed, "text/plain", fmt.Appendf(nil, "Using unsafe HTTP verb %s to invoke /json/new. This action supports only PUT verb.", req.Method))
		}
		return c.jsonNew(req)
	case "activate":
		return c.onTarget(req, "Target.activateTarget", arg, "Target activated")
	case "close":
		return c.onTarget(req, "Target.closeTarget", arg, "Target is closing")
	case "protocol":
		return c.jsonProtocol(req)
	}
	return reply(req, http.StatusNotFound, "text/plain", []byte("Unknown command: "+cmd))
}

// listEntry is a /json/list entry as Chromium writes it (its keys sorted).
type listEntry struct {
	Description          string `json:"description"`
	DevtoolsFrontendURL  string `json:"devtoolsFrontendUrl"`
	ID                   string `json:"id"`
	ParentID             string `json:"parentId,omitempty"`
	Title                string `json:"title"`
	Type                 string `json:"type"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

type targetInfo struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	ParentID string `json:"parentId"`
}

// frontendURL opens the DevTools frontend that every Chrome has built in on
// a page socket of host (Chromium's own points at its HTTP server or at the
// frontend on the internet).
func frontendURL(host, id string) string {
	return "devtools://devtools/bundled/inspector.html?ws=" + host + "/devtools/page/" + url.PathEscape(id)
}

func entryOf(host string, t targetInfo) listEntry {
	return listEntry{
		DevtoolsFrontendURL: frontendURL(host, t.TargetID), ID: t.TargetID, ParentID: t.ParentID,
		Title: t.Title, Type: t.Type, URL: t.URL, WebSocketDebuggerURL: "ws://" + host + "/devtools/page/" + t.TargetID,
	}
}

// listed says whether /json/list shows a target: not the browser, not a
// tab (its page is listed).
func listed(t targetInfo) bool { return t.Type != "browser" && t.Type != "tab" }

func (c *Connection) jsonVersion(req *http.Request) (*http.Response, error) {
	v := c.version
	return replyJSON(req, map[string]string{
		"Browser": v.Product, "Protocol-Version": v.ProtocolVersion, "User-Agent": v.UserAgent, "V8-Version": v.JSVersion,
		"WebKit-Version":       "537.36 (" + v.Revision + ")",
		"webSocketDebuggerUrl": "ws://" + req.Host + "/devtools/browser/" + c.browserTarget,
	})
}

func (c *Connection) jsonList(req *http.Request) (*http.Response, error) {
	raw, err := c.Call(req.Context(), "Target.getTargets", nil)
	if err != nil {
		return nil, err
	}
	var r struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	entries := []listEntry{}
	for _, t := range r.TargetInfos {
		if listed(t) {
			entries = append(entries, entryOf(req.Host, t))
		}
	}
	return replyJSON(req, entries)
}

func (c *Connection) jsonNew(req *http.Request) (*http.Response, error) {
	target := req.URL.RawQuery
	if u, err := url.QueryUnescape(target); err == nil {
		target = u
	}
	if target == "" {
		target = "about:blank"
	}
	raw, err := c.Call(req.Context(), "Target.createTarget", map[string]string{"url": target})
	if err != nil {
		return c.failed(req, err)
	}
	var made struct {
		TargetID string `json:"targetId"`
	}
	if err := json.Unmarshal(raw, &made); err != nil {
		return nil, err
	}
	var info struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}
	raw, err = c.Call(req.Context(), "Target.getTargetInfo", map[string]string{"targetId": made.TargetID})
	if err == nil {
		err = json.Unmarshal(raw, &info)
	}
	if err != nil {
		return c.failed(req, err)
	}
	return replyJSON(req, entryOf(req.Host, info.TargetInfo))
}

// onTarget runs a Target command for /json/activate and /json/close.
func (c *Connection) onTarget(req *http.Request, method, id, done string) (*http.Response, error) {
	if _, err := c.Call(req.Context(), method, map[string]string{"targetId": id}); err != nil {
		var ce *CDPError
		if errors.As(err, &ce) {
			return reply(req, http.StatusNotFound, "text/plain", []byte("No such target id: "+id))
		}
		return nil, err
	}
	return reply(req, http.StatusOK, "text/plain", []byte(done))
}

// failed answers a refused command as Chromium's HTTP server would.
func (c *Connection) failed(req *http.Request, err error) (*http.Response, error) {
	var ce *CDPError
	if errors.As(err, &ce) {
		return reply(req, http.StatusInternalServerError, "text/plain", []byte(ce.Message))
	}
	return nil, err
}

func replyJSON(req *http.Request, v any) (*http.Response, error) {
	body, err := json.MarshalIndent(v, "", "   ")
	if err != nil {
		return nil, err
	}
	return reply(req, http.StatusOK, "application/json; charset=UTF-8", append(body, '\n'))
}

func reply(req *http.Request, status int, contentType string, body []byte) (*http.Response, error) {
	return &http.Response{
		Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {contentType}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: req,
	}, nil
}
