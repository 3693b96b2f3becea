package recorder

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// networkEvent is what is read of a page's Network events: no body, no
// header value but a content type.
type networkEvent struct {
	id        string
	ts        float64 // the browser's monotonic clock, seconds
	wall      float64 // requestWillBeSent's wall time, seconds since the epoch
	url       string
	method    string
	rtype     string
	reqType   string // the request's Content-Type
	response  *responseFacts
	transfer  float64 // loadingFinished's encodedDataLength
	errorText string
}

type responseFacts struct {
	Status     int     `json:"status"`
	StatusText string  `json:"statusText"`
	MIMEType   string  `json:"mimeType"`
	Protocol   string  `json:"protocol"`
	IP         string  `json:"remoteIPAddress"`
	Port       int     `json:"remotePort"`
	Encoded    float64 `json:"encodedDataLength"`
}

func readNetwork(method string, params json.RawMessage) (networkEvent, bool) {
	var p struct {
		RequestID string  `json:"requestId"`
		Timestamp float64 `json:"timestamp"`
		WallTime  float64 `json:"wallTime"`
		Type      string  `json:"type"`
		Request   struct {
			URL     string            `json:"url"`
			Method  string            `json:"method"`
			Headers map[string]string `json:"headers"`
		} `json:"request"`
		Response          *responseFacts `json:"response"`
		RedirectResponse  *responseFacts `json:"redirectResponse"`
		EncodedDataLength float64        `json:"encodedDataLength"`
		ErrorText         string         `json:"errorText"`
	}
	switch method {
	case "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished", "Network.loadingFailed":
	default:
		return networkEvent{}, false
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == "" {
		return networkEvent{}, false
	}
	ev := networkEvent{id: p.RequestID, ts: p.Timestamp, wall: p.WallTime, url: p.Request.URL, method: p.Request.Method,
		rtype: p.Type, transfer: p.EncodedDataLength, errorText: p.ErrorText, response: p.Response}
	if method == "Network.requestWillBeSent" {
		ev.response = p.RedirectResponse // the request before it, answered by a redirect
		for k, v := range p.Request.Headers {
			if strings.EqualFold(k, "content-type") {
				ev.reqType = v
			}
		}
	}
	return ev, true
}

// pendingRequest is a request of a page, awaiting its end.
type pendingRequest struct {
	req  pwtrace.Request
	wall time.Time // when it was sent
	ts   float64   // and on the browser's clock
}

// at is the wall time of a browser clock reading during the request.
func (p *pendingRequest) at(ts float64) time.Time {
	if ts <= 0 || p.ts <= 0 {
		return time.Now()
	}
	return p.wall.Add(time.Duration((ts - p.ts) * float64(time.Second)))
}

// maxPending bounds the requests of a page awaiting their end.
const maxPending = 4096

// networkNews assembles a page's requests, each kept when it ended.
func (r *run) networkNews(p *page, method string, ev networkEvent) {
	switch method {
	case "Network.requestWillBeSent":
		if old := p.requests[ev.id]; old != nil && ev.response != nil {
			// A redirect: the request before it ends with its answer.
			answered(old, ev.response, ev.ts)
			old.req.End = old.req.Response
			r.keepRequest(p, ev.id, old)
		}
		if len(p.requests) >= maxPending {
			return
		}
		wall := epoch(ev.wall)
		p.requests[ev.id] = &pendingRequest{wall: wall, ts: ev.ts, req: pwtrace.Request{
			Page: p.id, Method: ev.method, URL: ev.url, ResourceType: ev.rtype, RequestContentType: ev.reqType,
			Start: wall, RequestBodySize: -1, BodySize: -1, TransferSize: -1}}
	case "Network.responseReceived":
		if q := p.requests[ev.id]; q != nil && ev.response != nil {
			answered(q, ev.response, ev.ts)
		}
	case "Network.loadingFinished", "Network.loadingFailed":
		q := p.requests[ev.id]
		if q == nil {
			return
		}
		q.req.End = q.at(ev.ts)
		q.req.Failure = ev.errorText
		if ev.transfer > 0 {
			q.req.TransferSize = int64(ev.transfer)
		}
		r.keepRequest(p, ev.id, q)
	}
}

func answered(q *pendingRequest, resp *responseFacts, ts float64) {
	q.req.Status, q.req.StatusText, q.req.MIMEType, q.req.Protocol = resp.Status, resp.StatusText, resp.MIMEType, resp.Protocol
	q.req.ServerIP, q.req.ServerPort = resp.IP, resp.Port
	q.req.Response = q.at(ts)
}

func (r *run) keepRequest(p *page, id string, q *pendingRequest) {
	delete(p.requests, id)
	if p.world != "" && r.isRecorded(p.world) {
		r.keep(p.world, kindRequest, q.req.Start, q.req, nil)
	}
}
