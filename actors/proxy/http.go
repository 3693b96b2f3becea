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
	"net/url"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
	"github.com/cdpvisor/cdpvisor/transport"
)

// maxJSONBody bounds a /json answer held in memory for rewriting.
const maxJSONBody = 32 << 20

// ServeHTTP is the endpoint's surface: /devtools/* websockets are relayed,
// everything else (/json/*) is answered by the browser, launched on demand,
// with its URLs rewritten to the endpoint.
func (p *Actor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == LivePath || r.URL.Path == ReadyPath {
		p.serveProbe(w, r) // whatever the Host: a kubelet sends the pod's IP; probes tell nothing secret
		return
	}
	if !p.hostAllowed(r.Host) {
		// DNS-rebinding protection, as Chromium has it, with a clearer answer.
		http.Error(w, fmt.Sprintf("cdpvisor: refused: the Host header %q is not a loopback address nor one allowed (--allow-host); connect to %s", r.Host, p.Endpoint()), http.StatusForbidden)
		p.spec.Log.Warn().Str("host", r.Host).Str("path", r.URL.Path).Msg("refused a request with a Host not allowed")
		return
	}
	if m, ok := p.mountFor(r.URL.Path, true); ok {
		m.Handler.ServeHTTP(w, r)
		return
	}
	if p.spec.Token != "" {
		ok, byQuery := p.authorized(r)
		if !ok {
			refuseUnauthorized(w)
			return
		}
		if byQuery {
			r = r.WithContext(context.WithValue(r.Context(), tokenInQuery{}, true))
		}
	}
	if m, ok := p.mountFor(r.URL.Path, false); ok {
		m.Handler.ServeHTTP(w, r)
		return
	}
	switch {
	case r.URL.Path == state.HealthPath:
		p.serveHealth(w, r)
	case r.URL.Path == worldapi.Path || strings.HasPrefix(r.URL.Path, worldapi.Path+"/"):
		p.serveWorldRequest(w, r)
	case r.URL.Path == state.ReportPath:
		p.serveReport(w, r)
	case r.URL.Path == "/devtools/browser" || strings.HasPrefix(r.URL.Path, "/devtools/browser/"):
		p.serveSocket(w, r, socket{target: browserTarget})
	case strings.HasPrefix(r.URL.Path, "/devtools/page/"):
		p.serveSocket(w, r, socket{target: pageTarget, path: r.URL.Path})
	case r.URL.Path == BiDiPath:
		p.serveSocket(w, r, socket{target: bidiTarget})
	case r.URL.Path == strings.TrimSuffix(WorldPrefix, "/") || strings.HasPrefix(r.URL.Path, WorldPrefix):
		p.serveWorld(w, r)
	default:
		p.forwardHTTP(w, r)
	}
}

// forwardHTTP relays a plain request to the browser: /json answers with
// their URLs rewritten to the endpoint, anything else (the DevTools
// frontend Chromium serves under /devtools/) streamed on untouched.
func (p *Actor) forwardHTTP(w http.ResponseWriter, r *http.Request) { p.forwardPath(w, r, r.URL.Path) }

// forwardPath relays a plain request to the browser's path (a world's
// request, its prefix taken off), with its query.
func (p *Actor) forwardPath(w http.ResponseWriter, r *http.Request, path string) {
	if p.spec.BiDi {
		ep, err := p.spec.Browser.EnsureRunning(r.Context())
		if err != nil {
			p.browserUnavailable(w, r, err)
			return
		}
		p.serveBiDiHTTP(w, r, ep)
		return
	}
	uri := path
	if r.URL.RawQuery != "" {
		uri += "?" + r.URL.RawQuery
	}
	sent, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody)) // once: the request may go to the next browser too
	if err != nil {
		http.Error(w, "cdpvisor: unreadable request: "+err.Error(), http.StatusBadRequest)
		return
	}
	var resp *http.Response
	var body []byte // the answer rewritten, when it is
	err = p.withBrowser(r.Context(), func(ep browser.Endpoint) error {
		res, err := p.askBrowser(r, ep, r.Method, uri, sent)
		if err != nil {
			return &browserFailed{status: http.StatusBadGateway, err: fmt.Errorf("the browser did not answer %s: %w", path, err)}
		}
		if !rewritten(path) {
			resp = res // streamed on below
			return nil
		}
		defer res.Body.Close()
		if body, err = p.readJSON(r, res, ep, path); err != nil {
			return &browserFailed{status: http.StatusBadGateway, err: err}
		}
		resp = res
		return nil
	})
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	defer resp.Body.Close()
	for _, h := range []string{"Content-Type", "Cache-Control", "Content-Security-Policy"} {
		if v := resp.Header.Get(h); v != "" {
			w.Header().Set(h, v)
		}
	}
	if !rewritten(path) {
		// The frontend's scripts, styles, images and the 1.6 MB protocol
		// schema: no URL of the browser's to rewrite. As they came, with
		// their length when the browser said it (the client transport has
		// undone any compression it asked for).
		if resp.ContentLength >= 0 {
			w.Header().Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
}

// askBrowser sends a plain request to the browser's HTTP surface.
// Chromium builds URLs from the Host it is asked with: it is asked with its
// own, and its answer rewritten to ours. The Origin is never forwarded.
func (p *Actor) askBrowser(r *http.Request, ep browser.Endpoint, method, uri string, body []byte) (*http.Response, error) {
	var sent io.Reader
	if len(body) > 0 {
		sent = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(r.Context(), method, "http://"+ep.HostPort+uri, sent)
	if err != nil {
		return nil, err
	}
	req.Host = ep.HostPort
	for _, h := range []string{"Content-Type", "Accept"} {
		if v := r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	return ep.HTTPClient(p.client).Do(req)
}

// readJSON reads a /json answer of the browser's with every URL in it
// pointing at the endpoint as the client named it.
func (p *Actor) readJSON(r *http.Request, resp *http.Response, ep browser.Endpoint, path string) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONBody+1))
	if err != nil {
		return nil, fmt.Errorf("unreadable answer from the browser for %s: %w", path, err)
	}
	if len(body) > maxJSONBody {
		return nil, fmt.Errorf("oversized answer from the browser for %s", path)
	}
	body = p.tokened(r, transport.RewriteHostPort(body, ep.HostPort, r.Host))
	if bytes.Contains(body, []byte(`"devtoolsFrontendUrl"`)) {
		body = p.frontendThroughEndpoint(r.Context(), body, ep, r.Host)
	}
	return body, nil
}

// rewritten says whether the answer for path carries the browser's URLs:
// the /json surface, but for the protocol schema.
func rewritten(path string) bool {
	if path == "/json/protocol" || path == "/json/protocol/" {
		return false
	}
	return path == "/json" || strings.HasPrefix(path, "/json/")
}

// remoteFrontendHost serves the DevTools frontend of every Chromium
// revision; Chromium 156 gives it as devtoolsFrontendUrl
// (https://chrome-devtools-frontend.appspot.com/serve_rev/@REV/inspector.html?ws=…).
// Opened as is, that frontend comes from the internet, and its websocket's
// Origin is not the endpoint's (refused without --allow-origin).
const remoteFrontendHost = "chrome-devtools-frontend.appspot.com"

// devtoolsFrontendURL is a devtoolsFrontendUrl member of a /json answer.
var devtoolsFrontendURL = regexp.MustCompile(`("devtoolsFrontendUrl"\s*:\s*")([^"\\]*)(")`)

// frontendThroughEndpoint points each devtoolsFrontendUrl of a /json answer
// at the frontend the browser serves itself, through the endpoint:
// http://HOST/devtools/inspector.html?ws=HOST/devtools/page/ID, HOST being
// the endpoint as the client named it. Its websocket then comes back to
// the endpoint with the endpoint's own Origin. A relative URL (older
// Chromium) is made absolute; the remote frontend's is replaced only when
// the browser serves that page itself (a headless shell has no frontend
// of its own); any other (--custom-devtools-frontend) is kept.
func (p *Actor) frontendThroughEndpoint(ctx context.Context, body []byte, ep browser.Endpoint, host string) []byte {
	served := map[string]bool{} // bundled frontend pages, asked once per answer
	return devtoolsFrontendURL.ReplaceAllFunc(body, func(m []byte) []byte {
		parts := devtoolsFrontendURL.FindSubmatch(m)
		u, err := url.Parse(string(parts[2]))
		if err != nil || (u.Query().Get("ws") == "" && u.Query().Get("wss") == "") {
			return m
		}
		page, local := path.Base(u.Path), u.Path
		switch {
		case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/devtools/"):
		case u.Host == remoteFrontendHost && strings.HasSuffix(page, ".html"):
			local = "/devtools/" + page
			ok, asked := served[page]
			if !asked {
				ok = p.servesFrontend(ctx, ep, page)
				served[page] = ok
			}
			if !ok {
				return m
			}
		default:
			return m
		}
		frontend := url.URL{Scheme: "http", Host: host, Path: local, RawQuery: u.RawQuery}
		return slices.Concat(parts[1], []byte(frontend.String()), parts[3])
	})
}

// servesFrontend says whether the browser serves the DevTools frontend page
// /devtools/page itself.
func (p *Actor) servesFrontend(ctx context.Context, ep browser.Endpoint, page string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ep.HostPort+"/devtools/"+page, nil)
	if err != nil {
		return false
	}
	req.Host = ep.HostPort
	resp, err := ep.HTTPClient(p.client).Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode == http.StatusOK
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
	http.Error(w, "cdpvisor: the browser is not available: "+remedy.Explain(err, p.spec.Words), http.StatusServiceUnavailable)
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
