package actors

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world recorded with --record: a client's navigation and clicks in a
// real Chromium come out of the trace as actions, the page's frames as
// the filmstrip, its requests as the network; nothing of an unrecorded
// world is kept.
func TestRecordedWorldWritesATrace(t *testing.T) {
	chromium := actortest.Chromium(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/still" {
			fmt.Fprint(w, `<html><body style="margin:0;background:#ff0">still</body></html>`)
			return
		}
		fmt.Fprint(w, `<html><body style="margin:0"><canvas id=c width=800 height=600 style="position:fixed;left:0;top:300px"></canvas>
<script>const g=document.getElementById('c').getContext('2d');(function f(){for(let i=0;i<400;i++){g.fillStyle='hsl('+(Math.random()*360)+',80%,50%)';g.fillRect(Math.random()*800,Math.random()*600,20,20)}requestAnimationFrame(f)})()</script>
<div id=box style="width:200px;height:200px;background:red"></div>
<script>let n=0;setInterval(()=>{document.getElementById('box').style.background=['red','green','blue'][n++%3]},100);console.log('hello from the page')</script></body></html>`)
	}))
	defer site.Close()
	c := runCoordinator(t, CoordinatorConfig{Record: true, Launch: launch.Options{
		Browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium}, Headless: true,
		ReadyTimeout: 20 * time.Second, StopGrace: 2 * time.Second,
	}})
	ctx := served.Context(t)
	w, err := c.WorldsOf(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.OpenWorld(ctx, "filmed"); err != nil {
		t.Fatal(err)
	}
	code, body, _ := actortest.HTTPDo(t, http.MethodPut, w.PathEndpoint("filmed")+"/json/new?"+site.URL, "")
	if code != http.StatusOK {
		t.Fatalf("/json/new in the world: %d %s", code, body)
	}
	var target struct{ WebSocketDebuggerURL string }
	if err := json.Unmarshal([]byte(body), &target); err != nil {
		t.Fatal(err)
	}
	cl := actortest.DialCDP(t, target.WebSocketDebuggerURL)
	time.Sleep(1500 * time.Millisecond)
	cl.Call(1, "Input.dispatchMouseEvent", `{"type":"mousePressed","x":50,"y":50,"button":"left","clickCount":1}`, "")
	cl.Call(2, "Input.dispatchMouseEvent", `{"type":"mouseReleased","x":50,"y":50,"button":"left","clickCount":1}`, "")
	cl.Call(3, "Page.navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/again"), "")
	time.Sleep(2 * time.Second)
	// A busy page's frames wait for their acknowledgement: the still page
	// that follows paints once, maybe while one waits, and its recording
	// must end on it all the same.
	cl.Call(4, "Page.navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/still"), "")
	time.Sleep(3 * time.Second)
	if got := lastFrameColor(t, c, "filmed"); got.R < 200 || got.G < 200 || got.B > 80 {
		t.Errorf("the recording's last frame is %v at its center, not the still page's yellow", got)
	}

	var out bytes.Buffer
	if err := c.WorldTrace(ctx, "", "filmed", worldapi.TraceQuery{}, &out); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	jpegs, trace := 0, ""
	for _, f := range z.File {
		switch {
		case strings.HasPrefix(f.Name, "resources/"):
			jpegs++
		case f.Name == "trace.trace" || f.Name == "trace.network":
			r, _ := f.Open()
			var b bytes.Buffer
			_, _ = b.ReadFrom(r)
			r.Close()
			trace += b.String()
		}
	}
	t.Logf("trace: %d bytes, %d frames", out.Len(), jpegs)
	if jpegs < 3 {
		t.Errorf("%d frames in the trace, want a few", jpegs)
	}
	for _, want := range []string{"Input.dispatchMouseEvent", "Page.navigate", site.URL + "/again", "hello from the page", `"status":200`} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace lacks %q", want)
		}
	}
	var webm bytes.Buffer
	if err := c.WorldTrace(ctx, "", "filmed", worldapi.TraceQuery{Format: worldapi.FormatWebM}, &webm); err != nil {
		t.Errorf("webm: %v", err)
	} else if !bytes.HasPrefix(webm.Bytes(), []byte{0x1a, 0x45, 0xdf, 0xa3}) {
		t.Errorf("the webm (%d bytes) does not begin as a WebM (EBML) file", webm.Len())
	}
	if err := c.WorldTrace(ctx, "", "unfilmed", worldapi.TraceQuery{}, &out); !errors.Is(err, worldapi.ErrNotRecorded) {
		t.Errorf("a world never recorded: %v, want ErrNotRecorded", err)
	}
	st, _ := c.recorder.StatusOf(ctx, "filmed")
	t.Logf("status %+v", st)
	if st.FramesReceived != st.FramesWritten || st.FramesReceived == 0 {
		t.Errorf("frames received %d, written %d", st.FramesReceived, st.FramesWritten)
	}
}

// lastFrameColor is the center pixel of the last frame the world's
// recording holds, as the live view reads it.
func lastFrameColor(t *testing.T, c *Coordinator, world string) color.RGBA {
	t.Helper()
	base := c.Default().Proxy.Endpoint() + "/cdpvisor/worlds/" + world + "/recording"
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, base, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", base, code, body)
	}
	var rec struct {
		Frames []struct {
			T    int64
			Page string
		}
	}
	if err := json.Unmarshal([]byte(body), &rec); err != nil || len(rec.Frames) == 0 {
		t.Fatalf("the recording: %v, %d frames", err, len(rec.Frames))
	}
	last := rec.Frames[len(rec.Frames)-1]
	code, jpg, _ := actortest.HTTPDo(t, http.MethodGet, fmt.Sprintf("%s/frame?page=%s&t=%d", base, last.Page, last.T), "")
	if code != http.StatusOK {
		t.Fatalf("the last frame: %d", code)
	}
	img, err := jpeg.Decode(strings.NewReader(jpg))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Dx()/2, b.Dy()/2).RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 255}
}
