package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/transport"
)

// maxJSONBody bounds a /json answer held in memory for rewriting.
const maxJSONBody = 32 << 20

// ServeHTTP is the endpoint's surface: /devtools/* websockets are relayed,
// everything else (/json/*) is answered by the browser, launched on demand,
// with its URLs rewritten to the endpoint.
func (p *Actor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !transport.IsLoopbackHost(r.Host) {
		// DNS-rebinding protection, as Chromium has it, with a clearer answer.
		http.Error(w, fmt.Sprintf("cdpvisor: refused: the Host header %q is not a loopback address; connect to %s", r.Host, p.Endpoint()), http.StatusForbidden)
		p.spec.Log.Warn().Str("host", r.Host).Str("path", r.URL.Path).Msg("refused a request with a non-loopback Host")
		return
	}
	switch {
	case r.URL.Path == state.HealthPath:
		p.serveHealth(w, r)
	case r.URL.Path == state.ReportPath:
		p.serveReport(w, r)
	case r.URL.Path == MetricsPath && p.spec.Metrics != nil:
		p.spec.Metrics.ServeHTTP(w, r)
	case r.URL.Path == "/devtools/browser" || strings.HasPrefix(r.URL.Path, "/devtools/browser/"):
		p.serveSocket(w, r, browserTarget)
	case strings.HasPrefix(r.URL.Path, "/devtools/page/"):
		p.serveSocket(w, r, pageTarget)
	default:
		p.forwardHTTP(w, r)
	}
}

// forwardHTTP relays a plain request to the browser and rewrites its answer.
func (p *Actor) forwardHTTP(w http.ResponseWriter, r *http.Request) {
	ep, err := p.spec.Browser.EnsureRunning(r.Context())
	if err != nil {
		p.browserUnavailable(w, r, err)
		return
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, "http://"+ep.HostPort+r.URL.RequestURI(), r.Body)
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
		return
	}
	// Chromium builds URLs from the Host it is asked with: ask with its own,
	// then rewrite to ours. The Origin is never forwarded.
	req.Host = ep.HostPort
	for _, h := range []string{"Content-Type", "Accept"} {
		if v := r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: the browser did not answer %s: %v", r.URL.Path, err), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for _, h := range []string{"Content-Type", "Cache-Control"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	if r.URL.Path == "/json/protocol" || r.URL.Path == "/json/protocol/" {
		// 1.6 MB of schema without URLs in it: stream it untouched.
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		return
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody+1))
	if err != nil || len(body) > maxJSONBody {
		http.Error(w, fmt.Sprintf("cdpvisor: unreadable or oversized answer from the browser for %s", r.URL.Path), http.StatusBadGateway)
		return
	}
	body = transport.RewriteHostPort(body, ep.HostPort, r.Host)
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, bytes.NewReader(body))
}

func (p *Actor) browserUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The endpoint is closing under the request (its instance was
		// closed, or cdpvisor is stopping).
		err = fmt.Errorf("%w: instance %s was closed while the request was pending", browser.ErrInstanceClosed, p.spec.Instance)
	}
	// The BrowserActor has logged why its launch failed: one fact, one line.
	p.spec.Log.Debug().Err(err).Str("path", r.URL.Path).Msg("no browser for a request")
	var backoff *browser.BackoffError
	if errors.As(err, &backoff) {
		// Within the launch backoff: say when a retry may launch again.
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(backoff.RetryIn().Seconds()))))
	}
	http.Error(w, "cdpvisor: the browser is not available: "+err.Error(), http.StatusServiceUnavailable)
}

func (p *Actor) serveHealth(w http.ResponseWriter, r *http.Request) {
	h := state.Health{PID: os.Getpid(), Instance: p.spec.Instance, Port: p.port}
	h.Clients, _ = p.Clients(r.Context())
	if s := p.spec.Status; s != nil {
		if st, err := s.Status(r.Context()); err == nil {
			h.Browser = &st
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(h)
}

// serveReport answers GET /health: the coordinator's report (this
// instance's alone when no report is wired, as in the bridge), 503 when it
// is degraded. It never launches a browser.
func (p *Actor) serveReport(w http.ResponseWriter, r *http.Request) {
	var rep state.Report
	if p.spec.Report != nil {
		rep = p.spec.Report(r.Context())
	} else {
		rep = state.Report{PID: os.Getpid()}
		var st browser.Status
		if p.spec.Status != nil {
			st, _ = p.spec.Status.Status(r.Context())
		}
		clients, _ := p.Clients(r.Context())
		rep.Instances = []state.InstanceReport{state.NewInstanceReport(p.spec.Instance, p.Endpoint(), st, clients)}
		rep.Summarize()
	}
	code := http.StatusOK
	if rep.Status == state.StatusDegraded {
		code = http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
}
