package transport

import (
	"bytes"
	"net"
	"net/url"
	"strings"
)

// IsLoopbackHost reports whether a Host header names this machine by a
// loopback name: 127.0.0.1 (any 127/8), localhost or [::1], with or without
// a port. Anything else may be DNS rebinding and is refused.
func IsLoopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// devtoolsOrigin is the DevTools frontend built into every Chrome: only its
// own windows have it, no web page does.
const devtoolsOrigin = "devtools://devtools"

// OriginAllowed reports whether a websocket upgrade's Origin may pass: no
// Origin (non-browser clients), the endpoint's own origin, a Chrome's
// built-in DevTools frontend (devtoolsFrontendUrl opens it), or one the
// user allowed explicitly ("*" allows all).
func OriginAllowed(origin, endpointHost string, allowed []string) bool {
	if origin == "" || origin == devtoolsOrigin {
		return true
	}
	for _, a := range allowed {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopbackHost(u.Host) && sameHostPort(u.Host, endpointHost)
}

func sameHostPort(a, b string) bool {
	_, pa, errA := net.SplitHostPort(a)
	_, pb, errB := net.SplitHostPort(b)
	return errA == nil && errB == nil && pa == pb
}

// RewriteHostPort replaces every occurrence of the browser's host:port in a
// /json answer with the endpoint's, so clients that use
// webSocketDebuggerUrl and devtoolsFrontendUrl as given come back to the
// endpoint instead of bypassing it.
func RewriteHostPort(body []byte, browserHostPort, endpointHost string) []byte {
	return bytes.ReplaceAll(body, []byte(browserHostPort), []byte(endpointHost))
}
