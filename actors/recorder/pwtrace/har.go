package pwtrace

import (
	"errors"
	"net/url"
	"strings"
	"time"
)

// A request is written to trace.network as Playwright's tracer writes it
// (packages/playwright-core/src/server/har/harTracer.ts createHarEntry):
// a "resource-snapshot" whose snapshot is a HAR entry with Playwright's
// extra fields. The network tab reads request.url, method, queryString
// and headers, response.status, statusText, headers, content.mimeType,
// bodySize, _transferSize, time, _monotonicTime and pageref
// (trace-viewer/src/ui/networkTab.tsx, networkResourceDetails.tsx): every
// array is written, if empty, or the tab fails on the entry.

type resourceSnapshot struct {
	Type     string   `json:"type"` // "resource-snapshot"
	Snapshot harEntry `json:"snapshot"`
}

type harEntry struct {
	PageRef         string      `json:"pageref,omitempty"`
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         harRequest  `json:"request"`
	Response        harResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         harTimings  `json:"timings"`
	ServerIPAddress string      `json:"serverIPAddress,omitempty"`
	ServerPort      int         `json:"_serverPort,omitempty"`
	MonotonicTime   float64     `json:"_monotonicTime"`
	ResourceType    string      `json:"_resourceType,omitempty"`
}

type harRequest struct {
	Method      string    `json:"method"`
	URL         string    `json:"url"`
	HTTPVersion string    `json:"httpVersion"`
	Cookies     []harPair `json:"cookies"`
	Headers     []harPair `json:"headers"`
	QueryString []harPair `json:"queryString"`
	HeadersSize int64     `json:"headersSize"`
	BodySize    int64     `json:"bodySize"`
}

type harResponse struct {
	Status       int        `json:"status"`
	StatusText   string     `json:"statusText"`
	HTTPVersion  string     `json:"httpVersion"`
	Cookies      []harPair  `json:"cookies"`
	Headers      []harPair  `json:"headers"`
	Content      harContent `json:"content"`
	RedirectURL  string     `json:"redirectURL"`
	HeadersSize  int64      `json:"headersSize"`
	BodySize     int64      `json:"bodySize"`
	TransferSize int64      `json:"_transferSize"`
	FailureText  string     `json:"_failureText,omitempty"`
}

type harContent struct {
	Size     int64  `json:"size"`
	MIMEType string `json:"mimeType"`
}

type harPair struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	SSL     float64 `json:"ssl"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// Request writes a network request and its response to trace.network. It
// refuses one without a URL or a start.
func (w *Writer) Request(r Request) error {
	if err := w.usable(); err != nil {
		return err
	}
	if r.URL == "" || r.Start.IsZero() {
		return errors.New("pwtrace: a request needs a URL and a start")
	}
	err := w.add(true, ms(r.Start), rankEvent, resourceSnapshot{Type: "resource-snapshot", Snapshot: harEntryOf(r)})
	if err == nil {
		w.counts.Requests++
	}
	return err
}

func harEntryOf(r Request) harEntry {
	method := r.Method
	if method == "" {
		method = "GET"
	}
	status := r.Status
	if status == 0 {
		status = -1 // Playwright's "no response": the tab says canceled
	}
	mime := r.MIMEType
	if mime == "" {
		mime = "x-unknown" // Playwright's "no content type"
	}
	version := httpVersion(r.Protocol)
	return harEntry{
		PageRef:         r.Page,
		StartedDateTime: r.Start.UTC().Format("2006-01-02T15:04:05.000Z"),
		Time:            span(r.Start, r.End),
		Request: harRequest{
			Method: method, URL: r.URL, HTTPVersion: version,
			Cookies: []harPair{}, Headers: contentType(r.RequestContentType), QueryString: queryOf(r.URL),
			HeadersSize: -1, BodySize: r.RequestBodySize,
		},
		Response: harResponse{
			Status: status, StatusText: r.StatusText, HTTPVersion: version,
			Cookies: []harPair{}, Headers: contentType(r.MIMEType),
			Content:     harContent{Size: -1, MIMEType: mime},
			HeadersSize: -1, BodySize: r.BodySize, TransferSize: r.TransferSize, FailureText: r.Failure,
		},
		Timings:         timingsOf(r),
		ServerIPAddress: r.ServerIP,
		ServerPort:      r.ServerPort,
		MonotonicTime:   ms(r.Start),
		ResourceType:    strings.ToLower(r.ResourceType),
	}
}

// contentType is the one header whose value is kept.
func contentType(v string) []harPair {
	if v == "" {
		return []harPair{}
	}
	return []harPair{{Name: "Content-Type", Value: v}}
}

// queryOf is the URL's query in its order (the URL itself is written:
// this is no more of it).
func queryOf(raw string) []harPair {
	out := []harPair{}
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" {
		return out
	}
	for part := range strings.SplitSeq(u.RawQuery, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		out = append(out, harPair{Name: k, Value: v})
	}
	return out
}

func timingsOf(r Request) harTimings {
	t := harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1, Send: -1, Wait: -1, Receive: -1}
	if !r.Response.IsZero() {
		t.Send, t.Wait = 0, span(r.Start, r.Response)
		t.Receive = span(r.Response, r.End)
	}
	return t
}

// span is from a to b in milliseconds, -1 if either is unknown.
func span(a, b time.Time) float64 {
	if a.IsZero() || b.IsZero() {
		return -1
	}
	return float64(max(b.Sub(a), 0).Microseconds()) / 1e3
}

func httpVersion(protocol string) string {
	switch strings.ToLower(protocol) {
	case "h2", "http/2", "http/2.0":
		return "HTTP/2.0"
	case "h3", "http/3", "http/3.0":
		return "HTTP/3.0"
	case "http/1.0":
		return "HTTP/1.0"
	default:
		return "HTTP/1.1"
	}
}
