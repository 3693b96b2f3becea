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
	"github.com/cdpvisor/cdpvisor/actors/guard"
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
	var answer jsonAnswer
	forward := false // activate and close: the browser's own answer, once the target is the world's
	err := p.withBrowser(r.Context(), func(ep browser.Endpoint) error {
		world, _, err := p.openWorld(r.Context(), name, ep)
		if err != nil {
			return err
		}
		switch command {
		case "version":
			answer, err = p.worldVersion(r, world, at, ep)
		case "", "list":
			answer, err = p.worldList(r, world, at, ep)
		case "new":
			answer, err = p.worldNewPage(r, world, at, ep)
		case "activate", "close":
			forward, err = true, p.worldHasTarget(r.Context(), world, ep, arg)
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

// jsonAnswer is a /json answer of a world's, ready to be written.
type jsonAnswer struct {
	status int
	body   []byte
}

// worldVersion is /json/version with the world's browser websocket.
func (p *Actor) worldVersion(r *http.Request, world *worlds.World, at worldAt, ep browser.Endpoint) (jsonAnswer, error) {
	body, status, err := p.browserJSON(r, ep, "/json/version")
	if err != nil {
		return jsonAnswer{}, err
	}
	return jsonAnswer{status, p.tokened(r, worldURLs(body, r.Host, at.prefix))}, nil
}

// worldList is /json/list of the world's targets alone.
func (p *Actor) worldList(r *http.Request, world *worlds.World, at worldAt, ep browser.Endpoint) (jsonAnswer, error) {
	targets, err := p.spec.Worlds.Targets(r.Context(), world, ep)
	if err != nil {
		return jsonAnswer{}, &worldDown{name: world.Name(), err: err}
	}
	body, status, err := p.browserJSON(r, ep, "/json/list")
	if err != nil {
		return jsonAnswer{}, err
	}
	body = filterList(body, func(e listEntry) bool {
		return slices.ContainsFunc(targets, func(t worlds.Target) bool { return t.ID == e.ID })
	})
	return jsonAnswer{status, p.tokened(r, worldURLs(body, r.Host, at.prefix))}, nil
}

// newPageWait bounds how long /json/new waits for the browser to list the
// page it made.
const newPageWait = 2 * time.Second

// worldNewPage is /json/new: a page in the world's context, answered as
// Chromium answers, with the page's /json/list entry.
func (p *Actor) worldNewPage(r *http.Request, world *worlds.World, at worldAt, ep browser.Endpoint) (jsonAnswer, error) {
	target := r.URL.RawQuery // Chromium takes the query as the URL, escaped or not
	if u, err := url.QueryUnescape(target); err == nil {
		target = u
	}
	if err := world.DoorURL(target); err != nil {
		// A guarded world's door, as its relays judge Target.createTarget.
		if j := p.spec.Journal; j != nil {
			j.Denied(world.Name(), "/json/new", target, guard.RuleDoors)
		}
		return jsonAnswer{}, &browserFailed{status: http.StatusForbidden, err: fmt.Errorf("/json/new is refused in world %q: %w (rule: %s)", world.Name(), err, guard.RuleDoors)}
	}
	id, err := p.spec.Worlds.NewPage(r.Context(), world, ep, target)
	if err != nil {
		return jsonAnswer{}, &browserFailed{status: http.StatusInternalServerError, err: fmt.Errorf("could not open a page in world %s: %w", world.Name(), err)}
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
				return jsonAnswer{http.StatusOK, p.tokened(r, worldURLs(out.Bytes(), r.Host, at.prefix))}, nil
			}
		}
		if time.Now().After(deadline) {
			return jsonAnswer{}, &browserFailed{status: http.StatusBadGateway, err: fmt.Errorf("the browser made page %s in world %s but does not list it", id, world.Name())}
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
