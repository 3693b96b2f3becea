package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// listen opens the debugging port. Like Chromium, a taken 127.0.0.1 port
// falls back to [::1] with the same number.
func (b *browser) listen() (net.Listener, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(b.opts.address, strconv.Itoa(b.opts.port)))
	if err != nil && b.opts.port != 0 && b.opts.address == "127.0.0.1" {
		l, err = net.Listen("tcp", fmt.Sprintf("[::1]:%d", b.opts.port))
	}
	return l, err
}

// serveHTTP starts the debugging port, prints the DevTools line and then
// writes DevToolsActivePort, in Chromium's order. It reports whether the port
// is up.
func (b *browser) serveHTTP(out stderrLog) bool {
	l, err := b.listen()
	if err != nil {
		out.write(noisePrefix() + "ERROR:content/browser/devtools/devtools_http_handler.cc:315] Cannot start http server for devtools.\n")
		return false
	}
	b.procMu.Lock()
	b.listener = l
	b.procMu.Unlock()
	b.addr = l.Addr().String()
	b.readyAt = time.Now().Add(b.opts.readyDelay)
	// The server's own complaints would be stderr lines Chromium never prints.
	go (&http.Server{Handler: b, ErrorLog: log.New(io.Discard, "", 0)}).Serve(l)

	path := "/devtools/browser/" + b.uuid
	out.devToolsLine("ws://" + b.addr + path)
	if b.opts.userDataDir != "" {
		port := l.Addr().(*net.TCPAddr).Port
		content := fmt.Sprintf("%d\n%s", port, path)
		os.WriteFile(filepath.Join(b.opts.userDataDir, "DevToolsActivePort"), []byte(content), 0o600)
	}
	return true
}

// ServeHTTP routes requests on the debugging port the way Chromium does.
func (b *browser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !hostAllowed(r.Host) {
		// DNS-rebinding protection.
		writeText(w, http.StatusInternalServerError, "text/html", "Host header is specified and is not an IP address or localhost.")
		return
	}
	if time.Now().Before(b.readyAt) {
		writeText(w, http.StatusServiceUnavailable, "text/plain", "fake browser not ready yet")
		return
	}
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/devtools/browser/"), strings.HasPrefix(p, "/devtools/page/"):
		b.serveWebSocket(w, r)
	case p == "/json" || strings.HasPrefix(p, "/json/"):
		b.serveJSON(w, r)
	default:
		writeText(w, http.StatusNotFound, "text/html", "")
	}
}

// hostAllowed accepts no Host, IP literals and localhost, with any port.
func hostAllowed(host string) bool {
	if host == "" {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return net.ParseIP(host) != nil || strings.EqualFold(host, "localhost")
}

// wsHost is the host:port put into URLs: the request's Host, as Chromium does.
func (b *browser) wsHost(r *http.Request) string {
	if r.Host != "" {
		return r.Host
	}
	return b.addr
}

type listEntry struct {
	Description          string `json:"description"`
	DevtoolsFrontendURL  string `json:"devtoolsFrontendUrl"`
	ID                   string `json:"id"`
	Title                string `json:"title"`
	Type                 string `json:"type"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

func (b *browser) entry(r *http.Request, t *target) listEntry {
	hostPath := b.wsHost(r) + "/devtools/page/" + t.id
	return listEntry{
		DevtoolsFrontendURL:  "/devtools/inspector.html?ws=" + hostPath,
		ID:                   t.id,
		Title:                t.title,
		Type:                 t.kind,
		URL:                  t.url,
		WebSocketDebuggerURL: "ws://" + hostPath,
	}
}

// serveJSON answers /json/<command>[/<argument>].
func (b *browser) serveJSON(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/json"), "/")
	command, arg, _ := strings.Cut(rest, "/")
	switch command {
	case "", "list":
		b.mu.Lock()
		list := make([]listEntry, 0, len(b.targets))
		for _, t := range b.targets {
			list = append(list, b.entry(r, t))
		}
		b.mu.Unlock()
		writeJSON(w, list)
	case "version":
		writeJSON(w, map[string]string{
			"Browser":              product,
			"File-Path-Style":      "posix",
			"Protocol-Version":     "1.3",
			"User-Agent":           userAgent,
			"V8-Version":           v8Version,
			"WebKit-Version":       "537.36",
			"webSocketDebuggerUrl": "ws://" + b.wsHost(r) + "/devtools/browser/" + b.uuid,
		})
	case "protocol":
		writeJSON(w, protocol)
	case "new":
		if r.Method != http.MethodPut {
			writeText(w, http.StatusMethodNotAllowed, jsonType, fmt.Sprintf(
				"Using unsafe HTTP verb %s to invoke /json/new. This action supports only PUT verb.", r.Method))
			return
		}
		b.mu.Lock()
		t := b.addTarget(r.URL.RawQuery, b.defaultContext) // the raw query is the URL, unescaped
		e := b.entry(r, t)
		b.mu.Unlock()
		writeJSON(w, e)
	case "activate", "close":
		b.mu.Lock()
		defer b.mu.Unlock()
		t := b.findTarget(arg)
		if t == nil {
			writeText(w, http.StatusNotFound, jsonType, "No such target id: "+arg)
			return
		}
		if command == "activate" {
			writeText(w, http.StatusOK, jsonType, "Target activated")
			return
		}
		b.removeTarget(t)
		writeText(w, http.StatusOK, jsonType, "Target is closing")
	default:
		writeText(w, http.StatusNotFound, jsonType, "Unknown command: "+command)
	}
}

const jsonType = "application/json; charset=UTF-8"

func writeText(w http.ResponseWriter, status int, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	w.Write([]byte(body))
}

// writeJSON indents with three spaces, as Chromium does.
func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.MarshalIndent(v, "", "   ")
	if err != nil {
		panic(err)
	}
	writeText(w, http.StatusOK, jsonType, string(data)+"\n")
}

// protocol is a token /json/protocol: the real one is ~1.6 MB.
var protocol = map[string]any{
	"version": map[string]string{"major": "1", "minor": "3"},
	"domains": []map[string]any{
		{"domain": "Browser", "commands": []map[string]string{{"name": "getVersion"}, {"name": "close"}}},
		{"domain": "Target", "commands": []map[string]string{
			{"name": "setDiscoverTargets"}, {"name": "setAutoAttach"}, {"name": "getTargets"},
			{"name": "createTarget"}, {"name": "attachToTarget"}, {"name": "closeTarget"},
		}},
		{"domain": "Runtime", "commands": []map[string]string{{"name": "evaluate"}}},
	},
}
