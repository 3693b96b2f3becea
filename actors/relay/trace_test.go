package relay

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// The frames relayFrames forwards, in order; each has a secret in its payload.
var (
	traceRequest  = `{"id":7,"method":"Network.setExtraHTTPHeaders","params":{"headers":{"Authorization":"Bearer SECRET-PARAM"}},"sessionId":"S1"}`
	traceAnswer   = `{"id":7,"result":{"token":"SECRET-ANSWER"},"sessionId":"S1"}`
	traceEvent    = `{"method":"Page.frameNavigated","params":{"frame":{"url":"https://example.com/?key=SECRET-EVENT"}},"sessionId":"S1"}`
	traceRequest2 = `{"id":8,"method":"Page.captureScreenshot"}`
	traceStreamed = `{"id":8,"result":{"data":"SECRET-SCREENSHOT` + strings.Repeat("A", streamAfter) + `"}}` // streamed on
)

// relayFrames runs a relay logging to a buffer at level (with the global
// level at global), forwards a request with a secret in its params, its
// answer, an event and a streamed answer, and returns what was logged.
func relayFrames(t *testing.T, level, global zerolog.Level) string {
	t.Helper()
	was := zerolog.GlobalLevel()
	zerolog.SetGlobalLevel(global)
	t.Cleanup(func() { zerolog.SetGlobalLevel(was) })
	var buf actortest.SyncBuffer
	client := newMemConn()
	echo := &echoBrowser{memConn: newMemConn()}
	relay := New(Spec{
		ID: 1, Client: client, Browser: echo, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Log: zerolog.New(&buf).Level(level),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = relay.Serve(ctx); close(done) }()
	echo.response = []byte(traceAnswer)
	client.in <- []byte(traceRequest)
	<-client.out
	echo.in <- []byte(traceEvent)
	<-client.out
	echo.response = []byte(traceStreamed)
	client.in <- []byte(traceRequest2)
	<-client.out
	cancel()
	<-done
	return buf.String()
}

type frameLine struct {
	Level     string `json:"level"`
	Message   string `json:"message"`
	Direction string `json:"direction"`
	ID        *int64 `json:"id"`
	Method    string `json:"method"`
	SessionID string `json:"sessionId"`
	Size      int64  `json:"size"`
}

func frameLines(t *testing.T, log string) []frameLine {
	t.Helper()
	var frames []frameLine
	for line := range strings.Lines(log) {
		var f frameLine
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if f.Message == "cdp frame" {
			frames = append(frames, f)
		}
	}
	return frames
}

// At trace level a relay logs each frame it forwards, one line each, with
// its direction, id, method, sessionId and size; never its payload.
func TestTraceLevelLogsEachFrameWithoutItsPayload(t *testing.T) {
	log := relayFrames(t, zerolog.TraceLevel, zerolog.TraceLevel)
	if strings.Contains(log, "SECRET") {
		t.Fatalf("the trace log shows a payload:\n%s", log)
	}
	id := func(n int64) *int64 { return &n }
	want := []frameLine{
		{Direction: "to_browser", ID: id(7), Method: "Network.setExtraHTTPHeaders", SessionID: "S1", Size: int64(len(traceRequest))},
		{Direction: "to_client", ID: id(7), SessionID: "S1", Size: int64(len(traceAnswer))},
		{Direction: "to_client", Method: "Page.frameNavigated", SessionID: "S1", Size: int64(len(traceEvent))},
		{Direction: "to_browser", ID: id(8), Method: "Page.captureScreenshot", Size: int64(len(traceRequest2))},
		{Direction: "to_client", ID: id(8), Size: int64(len(traceStreamed))},
	}
	got := frameLines(t, log)
	if len(got) != len(want) {
		t.Fatalf("%d frame lines, want %d:\n%s", len(got), len(want), log)
	}
	for i, g := range got {
		w := want[i]
		if g.Level != "trace" || g.Direction != w.Direction || (g.ID == nil) != (w.ID == nil) || (g.ID != nil && *g.ID != *w.ID) ||
			g.Method != w.Method || g.SessionID != w.SessionID || g.Size != w.Size {
			t.Errorf("frame line %d: %+v (id %v), want %+v (id %v)", i, g, g.ID, w, w.ID)
		}
	}
}

// Below trace, by the relay's logger or by the global level, no frame is
// logged.
func TestNoFrameLinesBelowTrace(t *testing.T) {
	for _, c := range []struct {
		name          string
		level, global zerolog.Level
	}{
		{"debug logger", zerolog.DebugLevel, zerolog.TraceLevel},
		{"global debug", zerolog.TraceLevel, zerolog.DebugLevel},
	} {
		t.Run(c.name, func(t *testing.T) {
			if frames := frameLines(t, relayFrames(t, c.level, c.global)); len(frames) != 0 {
				t.Fatalf("%d frame lines below trace: %+v", len(frames), frames)
			}
		})
	}
}
