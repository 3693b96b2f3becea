package proxy

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strings"

	"github.com/cdpvisor/cdpvisor/transport"
)

// The probes of an orchestrator: they need no token and say nothing secret.
const (
	LivePath  = "/health/live"
	ReadyPath = "/health/ready"
)

// hostAllowed is the DNS-rebinding rule: a loopback Host, or one of the
// names the endpoint is served under (Spec.AllowHosts), with any port.
func (p *Actor) hostAllowed(host string) bool {
	if transport.IsLoopbackHost(host) {
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	for _, a := range p.spec.AllowHosts {
		if strings.EqualFold(a, name) || strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// authorized says whether r carries the endpoint's token: as a bearer
// token, or as ?token= (which is then taken off the query, so that it
// reaches neither the browser nor a log). byQuery: the client gave it so,
// and is handed URLs that carry it.
func (p *Actor) authorized(r *http.Request) (ok, byQuery bool) {
	want := []byte("token=" + p.spec.Token)
	if bearer, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found {
		return subtle.ConstantTimeCompare([]byte("token="+strings.TrimSpace(bearer)), want) == 1, false
	}
	parts := strings.Split(r.URL.RawQuery, "&")
	for i, part := range parts {
		if subtle.ConstantTimeCompare([]byte(part), want) == 1 {
			r.URL.RawQuery = strings.Join(append(parts[:i:i], parts[i+1:]...), "&")
			return true, true
		}
	}
	return false, false
}

// refuseUnauthorized answers a request without the token: 401, saying how
// to give it, never what it is.
func refuseUnauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="cdpvisor"`)
	http.Error(w, "cdpvisor: this endpoint needs its token: send Authorization: Bearer TOKEN, or add ?token=TOKEN to the URL", http.StatusUnauthorized)
}

// serveProbe answers /health/live (the process serves) and /health/ready
// (it takes new clients: 503 while draining, at capacity, or while its
// launches keep failing).
func (p *Actor) serveProbe(w http.ResponseWriter, r *http.Request) {
	status, code, why := "live", http.StatusOK, ""
	if r.URL.Path == ReadyPath {
		status = "ready"
		if p.spec.Ready != nil {
			if ok, reason := p.spec.Ready(r.Context()); !ok {
				status, code, why = "not ready", http.StatusServiceUnavailable, reason
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(struct {
		Status string `json:"status"`
		Why    string `json:"why,omitempty"`
	}{status, why})
}

// wsURL is a websocket URL of the endpoint in a /json answer.
var wsURL = regexp.MustCompile(`"(ws://[^"?]+)"`)

// tokenInQuery marks a request whose client gave the token in its query.
type tokenInQuery struct{}

// tokened gives every websocket URL of a /json answer the token, for a
// client that gave it in the query and may not be able to set a header.
func (p *Actor) tokened(r *http.Request, body []byte) []byte {
	if r.Context().Value(tokenInQuery{}) == nil {
		return body
	}
	return wsURL.ReplaceAll(body, []byte(`"${1}?token=`+p.spec.Token+`"`))
}
