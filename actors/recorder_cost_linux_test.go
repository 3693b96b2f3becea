package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// What recording costs a world's clients, measured, not asserted (the
// machine is small and noisy): two worlds on one browser, one recorded,
// each a 1280x720 page that changes all the time; page round trips
// (Runtime.evaluate) and page loads (Page.navigate to the load event)
// interleaved between them, their medians and p90s as ratios; the
// recording's size a minute; frames received and written. Run with
// CDPVISOR_MEASURE=1 (CDPVISOR_MEASURE_SECONDS: how long, 60 by default);
// docs/performance.md keeps the numbers. Linux: the CPU is getrusage's.
func TestRecordingCost(t *testing.T) {
	if os.Getenv("CDPVISOR_MEASURE") == "" {
		t.Skip("a measurement: CDPVISOR_MEASURE=1 runs it")
	}
	secs := 60
	if s, err := strconv.Atoi(os.Getenv("CDPVISOR_MEASURE_SECONDS")); err == nil && s > 0 {
		secs = s
	}
	chromium := actortest.Chromium(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><body style="margin:0"><canvas id=c width=1280 height=720></canvas><script>
const g=document.getElementById('c').getContext('2d');let n=0;
(function f(){for(let i=0;i<40;i++){g.fillStyle='hsl('+((n*7+i*9)%360)+',70%,50%)';g.fillRect((i*97+n*13)%1280,(i*53+n*7)%720,160,90)}
g.fillStyle='#000';g.font='48px sans-serif';g.fillText('frame '+(n++),40,80);requestAnimationFrame(f)})();</script></body></html>`)
	}))
	defer site.Close()
	c := runCoordinator(t, CoordinatorConfig{Launch: launch.Options{
		Browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium}, Headless: true,
		ReadyTimeout: 20 * time.Second, StopGrace: 2 * time.Second,
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second+2*time.Minute)
	defer cancel()
	w, err := c.WorldsOf(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	on := true
	if _, err := w.OpenWorld(ctx, "filmed"); err != nil {
		t.Fatal(err)
	}
	type side struct {
		name         string
		cl           *actortest.CDPClient
		trips, loads []time.Duration
	}
	var sides []*side
	for _, name := range []string{"plain", "filmed"} {
		code, body, _ := actortest.HTTPDo(t, http.MethodPut, w.PathEndpoint(name)+"/json/new?"+site.URL, "")
		if code != http.StatusOK {
			t.Fatalf("/json/new in %s: %d %s", name, code, body)
		}
		var target struct{ WebSocketDebuggerURL string }
		if err := json.Unmarshal([]byte(body), &target); err != nil {
			t.Fatal(err)
		}
		cl := actortest.DialCDP(t, target.WebSocketDebuggerURL)
		cl.Call(1, "Emulation.setDeviceMetricsOverride", `{"width":1280,"height":720,"deviceScaleFactor":1,"mobile":false}`, "")
		cl.Call(2, "Page.enable", `{}`, "")
		sides = append(sides, &side{name: name, cl: cl})
	}
	time.Sleep(2 * time.Second)
	// One step: a round trip on each page in a random order, and every
	// 25th step a page load on each.
	id := int64(10)
	step := func(n int) {
		order := sides
		if rand.IntN(2) == 1 {
			order = []*side{sides[1], sides[0]}
		}
		for _, s := range order {
			id++
			t0 := time.Now()
			s.cl.Call(id, "Runtime.evaluate", `{"expression":"1+1","returnByValue":true}`, "")
			s.trips = append(s.trips, time.Since(t0))
			if n%25 != 0 {
				continue
			}
			id++
			t0 = time.Now()
			s.cl.Send(id, "Page.navigate", fmt.Sprintf(`{"url":%q}`, site.URL+"/?"+strconv.FormatInt(id, 10)), "")
			for s.cl.Next().Method != "Page.loadEventFired" {
			}
			s.loads = append(s.loads, time.Since(t0))
		}
	}
	// The coordinator's cost: its CPU and heap with the busy world not
	// recorded, then recorded (the steps run in both).
	phase := func(d time.Duration) (cpu time.Duration, heap uint64) {
		c0 := processCPU()
		for n, end := 0, time.Now().Add(d); time.Now().Before(end); n++ {
			step(n)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return processCPU() - c0, ms.HeapInuse
	}
	third := time.Duration(secs) * time.Second / 3
	off := false
	if err := w.Asked(ctx, "filmed", worldapi.OpenRequest{Record: &off}); err != nil {
		t.Fatal(err)
	}
	cpuOff, heapOff := phase(third)
	for _, s := range sides {
		s.trips, s.loads = nil, nil
	}
	if err := w.Asked(ctx, "filmed", worldapi.OpenRequest{Record: &on}); err != nil {
		t.Fatal(err)
	}
	began := time.Now() // the recording's bytes count from here
	start := began
	cpuOn, heapOn := phase(2 * third)
	t.Logf("the coordinator: CPU %.1f%% of a core not recording, %.1f%% recording one busy world (+%.1f%%); heap in use %.1f MB, %.1f MB",
		100*cpuOff.Seconds()/third.Seconds(), 100*cpuOn.Seconds()/(2*third).Seconds(),
		100*(cpuOn.Seconds()/(2*third).Seconds()-cpuOff.Seconds()/third.Seconds()), float64(heapOff)/1e6, float64(heapOn)/1e6)
	elapsed := time.Since(start)
	q := func(d []time.Duration, p float64) time.Duration {
		d = slices.Clone(d)
		slices.Sort(d)
		return d[int(float64(len(d)-1)*p)]
	}
	st, _ := c.recorder.StatusOf(ctx, "filmed")
	p, f := sides[0], sides[1]
	t.Logf("%d s, %d round trips and %d loads a world", int(elapsed.Seconds()), len(p.trips), len(p.loads))
	t.Logf("round trip p50: plain %v, recorded %v (x%.3f); p90: %v, %v (x%.3f)", q(p.trips, .5), q(f.trips, .5),
		float64(q(f.trips, .5))/float64(q(p.trips, .5)), q(p.trips, .9), q(f.trips, .9), float64(q(f.trips, .9))/float64(q(p.trips, .9)))
	t.Logf("page load p50: plain %v, recorded %v (x%.3f); p90: %v, %v (x%.3f)", q(p.loads, .5), q(f.loads, .5),
		float64(q(f.loads, .5))/float64(q(p.loads, .5)), q(p.loads, .9), q(f.loads, .9), float64(q(f.loads, .9))/float64(q(p.loads, .9)))
	recorded := time.Since(began)
	t.Logf("recording: %d bytes in %v = %.2f MB a minute; frames received %d, written %d (%.2f a second)", st.Bytes, recorded.Round(time.Millisecond),
		float64(st.Bytes)/recorded.Minutes()/1e6, st.FramesReceived, st.FramesWritten, float64(st.FramesWritten)/recorded.Seconds())
	if st.FramesReceived != st.FramesWritten {
		t.Errorf("frames received %d, written %d", st.FramesReceived, st.FramesWritten)
	}
}

// processCPU is the CPU time this process (the coordinator, in the test)
// used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
