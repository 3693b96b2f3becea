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
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// serveWorldJSON answers a world's /json surface as Chromium answers its
// own, for the world alone: its targets, pages made in its context, and
// every URL pointing back at the world's endpoint.
func (p *Actor) serveWorldJSON(w http.ResponseWriter, r *http.Request, at worldAt, rest string) {
	name := at.name
	command, arg, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(rest, "/json"), "/"), "/")
	if command == "protocol" {
		p.forwardPath(w, r, rest) // the same for every world
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
	ep, err := p.spec.Browser.EnsureRunning(r.Context())
	if err != nil {
		p.browserUnavailable(w, r, err)
		return
	}
	world, _, ep, err := p.openWorld(r.Context(), name, ep)
	if err != nil {
		p.worldUnavailable(w, r, name, err)
		return
	}
	switch command {
	case "version":
		p.worldVersion(w, r, at, ep)
	case "", "list":
		p.worldList(w, r, world, at, ep)
	case "new":
		p.worldNewPage(w, r, world, at, ep)
	case "activate", "close":
		if p.worldHasTarget(w, r, world, ep, arg) {
			p.forwardPath(w, r, rest)
		}
	}
}

// worldVersion is /json/version with the world's browser websocket.
func (p *Actor) worldVersion(w http.ResponseWriter, r *http.Request, at worldAt, ep browser.Endpoint) {
	body, status, ok := p.browserJSON(w, r, ep, "/json/version")
	if ok {
		writeJSONBody(w, status, p.tokened(r, worldURLs(body, r.Host, at.prefix)))
	}
}

// worldList is /json/list of the world's targets alone.
func (p *Actor) worldList(w http.ResponseWriter, r *http.Request, world *worlds.World, at worldAt, ep browser.Endpoint) {
	targets, err := p.spec.Worlds.Targets(r.Context(), world, ep)
	if err != nil {
		p.worldUnavailable(w, r, world.Name(), err)
		return
	}
	body, status, ok := p.browserJSON(w, r, ep, "/json/list")
	if !ok {
		return
	}
	body = filterList(body, func(e listEntry) bool {
		return slices.ContainsFunc(targets, func(t worlds.Target) bool { return t.ID == e.ID })
	})
	writeJSONBody(w, status, p.tokened(r, worldURLs(body, r.Host, at.prefix)))
}

// newPageWait bounds how long /json/new waits for the browser to list the
// page it made.
const newPageWait = 2 * time.Second

// worldNewPage is /json/new: a page in the world's context, answered as
// Chromium answers, with the page's /json/list entry.
func (p *Actor) worldNewPage(w http.ResponseWriter, r *http.Request, world *worlds.World, at worldAt, ep browser.Endpoint) {
	target := r.URL.RawQuery // Chromium takes the query as the URL, escaped or not
	if u, err := url.QueryUnescape(target); err == nil {
		target = u
	}
	id, err := p.spec.Worlds.NewPage(r.Context(), world, ep, target)
	if err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: could not open a page in world %s: %v", world.Name(), err), http.StatusInternalServerError)
		return
	}
	for deadline := time.Now().Add(newPageWait); ; time.Sleep(25 * time.Millisecond) {
		body, _, ok := p.browserJSON(w, r, ep, "/json/list")
		if !ok {
			return
		}
		var entries []json.RawMessage
		_ = json.Unmarshal(body, &entries)
		for _, raw := range entries {
			var e listEntry
			if json.Unmarshal(raw, &e) == nil && e.ID == id {
				var out bytes.Buffer
				_ = json.Indent(&out, raw, "", "   ")
				out.WriteByte('\n')
				writeJSONBody(w, http.StatusOK, p.tokened(r, worldURLs(out.Bytes(), r.Host, at.prefix)))
				return
			}
		}
		if time.Now().After(deadline) {
			http.Error(w, fmt.Sprintf("cdpvisor: the browser made page %s in world %s but does not list it", id, world.Name()), http.StatusBadGateway)
			return
		}
	}
}

// browserJSON asks the browser for one of its /json answers, its URLs
// pointing at the endpoint; false: the request was answered with why not.
func (p *Actor) browserJSON(w http.ResponseWriter, r *http.Request, ep browser.Endpoint, path string) ([]byte, int, bool) {
	resp, err := p.askBrowser(r, ep, http.MethodGet, path)
	if err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: the browser did not answer %s: %v", path, err), http.StatusBadGateway)
		return nil, 0, false
	}
	defer resp.Body.Close()
	body, err := p.readJSON(r, resp, ep, path)
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadGateway)
		return nil, 0, false
	}
	return body, resp.StatusCode, true
}

// worldURLs points the websocket URLs of a /json answer (rewritten to the
// endpoint already) at the world's endpoint under prefix, /context/NAME:
// its browser socket, its pages' sockets, and the DevTools frontend's ws=
// parameter. On the world's own port (no prefix) they are right as they
// are.
func worldURLs(body []byte, host, prefix string) []byte {
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
