package pwtrace

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// loaded is a trace zip as these tests read it: its entries and each JSON
// line of trace.trace and trace.network.
type loaded struct {
	files   map[string]*zip.File
	trace   []map[string]any
	network []map[string]any
}

func load(t *testing.T, data []byte) loaded {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the trace is no zip: %v", err)
	}
	l := loaded{files: map[string]*zip.File{}}
	for _, f := range zr.File {
		if _, dup := l.files[f.Name]; dup {
			t.Errorf("entry %s is in the zip twice", f.Name)
		}
		l.files[f.Name] = f
	}
	l.trace = readLines(t, l.files, "trace.trace")
	l.network = readLines(t, l.files, "trace.network")
	return l
}

func readLines(t *testing.T, files map[string]*zip.File, name string) []map[string]any {
	t.Helper()
	f, ok := files[name]
	if !ok {
		t.Fatalf("no %s in the zip", name)
	}
	rc, err := f.Open()
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer rc.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(rc)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s line %d is no JSON object: %v: %s", name, n, err, sc.Text())
		}
		lines = append(lines, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return lines
}

func (l loaded) read(t *testing.T, name string) []byte {
	t.Helper()
	f, ok := l.files[name]
	if !ok {
		t.Fatalf("no %s in the zip", name)
	}
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc) // checks the CRC too
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

// ofType are the lines of one type.
func ofType(lines []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["type"] == typ {
			out = append(out, l)
		}
	}
	return out
}

// viewerProblems checks what playwright-core 1.65.1's loader and tabs
// need of a trace (the package doc's list, with the files it is read
// from), and answers every way l falls short.
func viewerProblems(l loaded) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	if len(l.trace) == 0 || l.trace[0]["type"] != "context-options" {
		fail("trace.trace does not start with context-options")
	} else if v, _ := l.trace[0]["version"].(float64); v != Version || l.trace[0]["wallTime"] == nil || l.trace[0]["monotonicTime"] == nil {
		fail("context-options: version %v, wallTime %v, monotonicTime %v", l.trace[0]["version"], l.trace[0]["wallTime"], l.trace[0]["monotonicTime"])
	}
	started := map[string]float64{}
	lastFrame := map[string]float64{}
	for i, e := range l.trace {
		id, _ := e["callId"].(string)
		switch e["type"] {
		case "before":
			if _, dup := started[id]; dup || id == "" {
				fail("line %d: before of call %q again", i, id)
			}
			if _, ok := e["params"].(map[string]any); !ok {
				fail("line %d: before without params", i)
			}
			if !isString(e["class"]) || !isString(e["method"]) || num(e["startTime"]) <= 0 {
				fail("line %d: before without class, method or startTime: %v", i, e)
			}
			started[id] = num(e["startTime"])
		case "input", "after", "log":
			start, ok := started[id]
			if !ok {
				fail("line %d: %s of call %q before its before", i, e["type"], id)
			}
			if e["type"] == "after" && num(e["endTime"]) < start {
				fail("line %d: call %q ends before it starts", i, id)
			}
		case "screencast-frame":
			page, _ := e["pageId"].(string)
			ts := num(e["timestamp"])
			if page == "" || ts <= 0 || num(e["width"]) <= 0 || num(e["height"]) <= 0 {
				fail("line %d: frame without page, time or size: %v", i, e)
			}
			if ts < lastFrame[page] {
				fail("line %d: page %s's frames out of order", i, page)
			}
			lastFrame[page] = ts
			bad = append(bad, l.missingFile(i, e["file"])...)
		case "screenshot":
			if p := e["phase"]; p != "before" && p != "action" && p != "after" {
				fail("line %d: screenshot phase %v", i, p)
			}
			bad = append(bad, l.missingFile(i, e["file"])...)
		case "console":
			loc, _ := e["location"].(map[string]any)
			if num(e["time"]) <= 0 || !isString(e["messageType"]) || !isString(e["text"]) || loc == nil || !isString(loc["url"]) {
				fail("line %d: console without time, messageType, text or location.url: %v", i, e)
			}
		case "event":
			params, _ := e["params"].(map[string]any)
			if e["method"] == "pageError" {
				outer, _ := params["error"].(map[string]any)
				inner, _ := outer["error"].(map[string]any)
				if !isString(inner["message"]) {
					fail("line %d: pageError without params.error.error.message", i)
				}
			}
		case "context-options":
			if i != 0 {
				fail("line %d: context-options again", i)
			}
		default:
			fail("line %d: a type the writer does not write: %v", i, e["type"])
		}
	}
	for i, s := range ofType(l.trace, "screenshot") {
		if _, ok := started[s["callId"].(string)]; !ok {
			fail("screenshot %d of an unknown call %v", i, s["callId"])
		}
	}
	for i, e := range l.network {
		bad = append(bad, harProblems(i, e)...)
	}
	return bad
}

func harProblems(i int, e map[string]any) []string {
	var bad []string
	snap, _ := e["snapshot"].(map[string]any)
	req, _ := snap["request"].(map[string]any)
	resp, _ := snap["response"].(map[string]any)
	content, _ := resp["content"].(map[string]any)
	switch {
	case e["type"] != "resource-snapshot" || snap == nil || req == nil || resp == nil || content == nil:
		bad = append(bad, fmt.Sprintf("network line %d: no resource-snapshot with request, response and content: %v", i, e))
	case !isString(req["url"]) || !isString(req["method"]) || !isArray(req["headers"]) || !isArray(req["queryString"]):
		bad = append(bad, fmt.Sprintf("network line %d: request without url, method, headers or queryString", i))
	case num(resp["status"]) == 0 || !isArray(resp["headers"]) || !isString(content["mimeType"]) || !isString(resp["statusText"]):
		bad = append(bad, fmt.Sprintf("network line %d: response without status, statusText, headers or content.mimeType", i))
	case num(snap["_monotonicTime"]) <= 0 || snap["time"] == nil || !isString(snap["startedDateTime"]):
		bad = append(bad, fmt.Sprintf("network line %d: without _monotonicTime, time or startedDateTime", i))
	}
	return bad
}

func (l loaded) missingFile(i int, file any) []string {
	name, _ := file.(string)
	if !strings.HasPrefix(name, "resources/") {
		return []string{fmt.Sprintf("line %d: file %v is not under resources/", i, file)}
	}
	if _, ok := l.files[name]; !ok {
		return []string{fmt.Sprintf("line %d: file %s is not in the zip", i, name)}
	}
	return nil
}

func num(v any) float64 { f, _ := v.(float64); return f }

func isString(v any) bool { _, ok := v.(string); return ok }

func isArray(v any) bool { _, ok := v.([]any); return ok }
