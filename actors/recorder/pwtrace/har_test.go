package pwtrace

import (
	"encoding/json"
	"reflect"
	"testing"
)

func entryJSON(t *testing.T, r Request) map[string]any {
	t.Helper()
	data, err := json.Marshal(harEntryOf(r))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if bad := harProblems(0, map[string]any{"type": "resource-snapshot", "snapshot": v}); len(bad) > 0 {
		t.Error(bad)
	}
	return v
}

func TestARequestIsAHAREntry(t *testing.T) {
	e := entryJSON(t, Request{
		Page: "P1", Method: "GET", URL: "http://127.0.0.1:9/form?x=1&y=a%20b&x=2", ResourceType: "Document", Protocol: "h2",
		Status: 200, StatusText: "OK", MIMEType: "text/html; charset=utf-8",
		Start: at(210), Response: at(260), End: at(280), RequestBodySize: 0, BodySize: 120, TransferSize: 300,
		ServerIP: "127.0.0.1", ServerPort: 9,
	})
	req, resp := e["request"].(map[string]any), e["response"].(map[string]any)
	want := map[string]any{
		"pageref": "P1", "startedDateTime": "2026-12-07T15:00:00.210Z", "time": 70.0,
		"_monotonicTime": ms(at(210)), "_resourceType": "document", "serverIPAddress": "127.0.0.1", "_serverPort": 9.0,
	}
	for k, v := range want {
		if e[k] != v {
			t.Errorf("%s: %v, want %v", k, e[k], v)
		}
	}
	query := []any{
		map[string]any{"name": "x", "value": "1"}, map[string]any{"name": "y", "value": "a b"}, map[string]any{"name": "x", "value": "2"},
	}
	if !reflect.DeepEqual(req["queryString"], query) {
		t.Errorf("queryString %v, want the URL's in its order", req["queryString"])
	}
	if req["httpVersion"] != "HTTP/2.0" || resp["status"] != 200.0 || resp["_transferSize"] != 300.0 || resp["bodySize"] != 120.0 {
		t.Errorf("request %v response %v", req, resp)
	}
	if c := resp["content"].(map[string]any); c["mimeType"] != "text/html; charset=utf-8" {
		t.Errorf("content %v", c)
	}
	timings := e["timings"].(map[string]any)
	if timings["wait"] != 50.0 || timings["receive"] != 20.0 || timings["send"] != 0.0 {
		t.Errorf("timings %v, want wait 50 receive 20", timings)
	}
}

// Of the headers only a content type is written: the privacy rule of
// the journal, and no cookies.
func TestOnlyAContentTypeOfTheHeaders(t *testing.T) {
	e := entryJSON(t, Request{URL: "http://h/api", Method: "POST", RequestContentType: "application/json", MIMEType: "application/json", Status: 201, Start: at(1)})
	req, resp := e["request"].(map[string]any), e["response"].(map[string]any)
	header := []any{map[string]any{"name": "Content-Type", "value": "application/json"}}
	if !reflect.DeepEqual(req["headers"], header) || !reflect.DeepEqual(resp["headers"], header) {
		t.Errorf("headers: request %v response %v", req["headers"], resp["headers"])
	}
	for _, m := range []map[string]any{req, resp} {
		if c, _ := m["cookies"].([]any); c == nil || len(c) != 0 {
			t.Errorf("cookies %v, want []", m["cookies"])
		}
	}
	if _, ok := req["postData"]; ok {
		t.Error("a request body's record is written")
	}
}

func TestARequestWithoutAnswer(t *testing.T) {
	e := entryJSON(t, Request{URL: "http://h/x", Failure: "net::ERR_CONNECTION_REFUSED", Start: at(1)})
	resp := e["response"].(map[string]any)
	if resp["status"] != -1.0 || resp["_failureText"] != "net::ERR_CONNECTION_REFUSED" || e["time"] != -1.0 {
		t.Errorf("a failed request: %v", e)
	}
	if resp["content"].(map[string]any)["mimeType"] != "x-unknown" || e["request"].(map[string]any)["method"] != "GET" {
		t.Errorf("defaults: %v", e)
	}
	if tm := e["timings"].(map[string]any); tm["wait"] != -1.0 || tm["receive"] != -1.0 {
		t.Errorf("timings of no response: %v", tm)
	}
}
