package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// serveScopeJSON answers a scope's /json surface as Chromium answers its
// own, for the scope alone: its targets, pages made in it, and every URL
// pointing back at the scope's endpoint.
func (p *Actor) serveScopeJSON(w http.ResponseWriter, r *http.Request, at scopeAt, rest string) {
	name := at.name
	command, arg, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(rest, "/json"), "/"), "/")
	if command == "protocol" {
		p.forwardPath(w, r, rest) // the same for every scope
		return
	}
	if command == "new" && r.Method != http.MethodPut {
		// Before anything launches, as Chromium refuses it.
		writeChromiumText(w, http.StatusMethodNotAllowed, fmt.Sprintf(
			"Using unsafe HTTP verb %s to invoke /json/new. This action supports only PUT verb.", r.Method))
		return
	}
	switch command {
	case "", "list", "version", "new", "activate", "close":
	default:
		writeChromiumText(w, http.StatusNotFound, "Unknown command: "+command)
		return
	}
	var answer jsonAnswer
	forward := false // activate and close: the browser's own answer, once the target is the scope's
	err := p.withBrowser(r.Context(), func(ep browser.Endpoint) error {
		scope, err := p.openScope(r.Context(), name, ep)
		if err != nil {
			return err
		}
		switch command {
		case "version":
			answer, err = p.scopeVersion(r, at, ep)
		case "", "list":
			answer, err = p.scopeList(r, scope, at, ep)
		case "new":
			answer, err = p.scopeNewPage(r, scope, at, ep)
		case "activate", "close":
			forward, err = true, p.scopeHasTarget(r.Context(), scope, name, arg)
		}
		return err
	})
	switch {
	case err != nil:
		p.refuse(w, r, err)
	case forward:
		p.forwardPath(w, r, rest)
	default:
		writeJSONBody(w, answer.status, answer.body)
	}
}

// jsonAnswer is a /json answer of a scope's, ready to be written.
type jsonAnswer struct {
	status int
	body   []byte
}

// scopeVersion is /json/version with the scope's browser websocket.
func (p *Actor) scopeVersion(r *http.Request, at scopeAt, ep browser.Endpoint) (jsonAnswer, error) {
	body, status, err := p.browserJSON(r, ep, "/json/version")
	if err != nil {
		return jsonAnswer{}, err
	}
	return jsonAnswer{status, p.tokened(r, scopeURLs(body, r.Host, at.prefix))}, nil
}

// scopeList is /json/list of the scope's targets alone.
func (p *Actor) scopeList(r *http.Request, scope Scope, at scopeAt, ep browser.Endpoint) (jsonAnswer, error) {
	targets, err := scope.Targets(r.Context())
	if err != nil {
		return jsonAnswer{}, &scopeDown{name: at.name, err: err}
	}
	body, status, err := p.browserJSON(r, ep, "/json/list")
	if err != nil {
		return jsonAnswer{}, err
	}
	body = filterList(body, func(e listEntry) bool {
		return slices.Contains(targets, e.ID)
	})
	return jsonAnswer{status, p.tokened(r, scopeURLs(body, r.Host, at.prefix))}, nil
}

// newPageWait bounds how long /json/new waits for the browser to list the
// page it made.
const newPageWait = 2 * time.Second

// scopeNewPage is /json/new: a page of the scope, answered as Chromium
// answers, with the page's /json/list entry.
func (p *Actor) scopeNewPage(r *http.Request, scope Scope, at scopeAt, ep browser.Endpoint) (jsonAnswer, error) {
	target := r.URL.RawQuery // Chromium takes the query as the URL, escaped or not
	if u, err := url.QueryUnescape(target); err == nil {
		target = u
	}
	if err := scope.RefuseNewPage(target); err != nil {
		return jsonAnswer{}, &browserFailed{status: http.StatusForbidden, err: err}
	}
	id, err := scope.NewPage(r.Context(), target)
	if err != nil {
		return jsonAnswer{}, &browserFailed{status: http.StatusInternalServerError, err: fmt.Errorf("could not open a page in world %s: %w", at.name, err)}
	}
	for deadline := time.Now().Add(newPageWait); ; time.Sleep(25 * time.Millisecond) {
		body, _, err := p.browserJSON(r, ep, "/json/list")
		if err != nil {
			return jsonAnswer{}, err
		}
		var entries []json.RawMessage
		_ = json.Unmarshal(body, &entries)
		for _, raw := range entries {
			var e listEntry
			if json.Unmarshal(raw, &e) == nil && e.ID == id {
				var out bytes.Buffer
				_ = json.Indent(&out, raw, "", "   ")
				out.WriteByte('\n')
				return jsonAnswer{http.StatusOK, p.tokened(r, scopeURLs(out.Bytes(), r.Host, at.prefix))}, nil
			}
		}
		if time.Now().After(deadline) {
			return jsonAnswer{}, &browserFailed{status: http.StatusBadGateway, err: fmt.Errorf("the browser made page %s in world %s but does not list it", id, at.name)}
		}
	}
}

// browserJSON asks the browser for one of its /json answers, its URLs
// pointing at the endpoint.
func (p *Actor) browserJSON(r *http.Request, ep browser.Endpoint, path string) ([]byte, int, error) {
	resp, err := p.askBrowser(r, ep, http.MethodGet, path, nil)
	if err != nil {
		return nil, 0, &browserFailed{status: http.StatusBadGateway, err: fmt.Errorf("the browser did not answer %s: %w", path, err)}
	}
	defer resp.Body.Close()
	body, err := p.readJSON(r, resp, ep, path)
	if err != nil {
		return nil, 0, &browserFailed{status: http.StatusBadGateway, err: err}
	}
	return body, resp.StatusCode, nil
}

// scopeURLs points the websocket URLs of a /json answer (rewritten to the
// endpoint already) at the scope's endpoint under prefix, /context/NAME:
// its browser socket, its pages' sockets, and the DevTools frontend's ws=
// parameter. Through ScopeHandler (no prefix) they are right as they
// are.
func scopeURLs(body []byte, host, prefix string) []byte {
	if prefix == "" {
		return body
	}
	for _, kind := range []string{"/devtools/browser/", "/devtools/page/"} {
		body = bytes.ReplaceAll(body, []byte(host+kind), []byte(host+prefix+kind))
	}
	return body
}

// chromiumJSONType is the Content-Type of Chromium's /json answers.
const chromiumJSONType = "application/json; charset=UTF-8"

func writeJSONBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", chromiumJSONType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeChromiumText answers as Chromium answers what it refuses on its
// /json surface: plain words with its JSON content type.
func writeChromiumText(w http.ResponseWriter, status int, text string) {
	writeJSONBody(w, status, []byte(text))
}
