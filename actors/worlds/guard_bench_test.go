package worlds_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// gif is a 1×1 transparent GIF.
var gif = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// The guard's cost, measured on demand (CDPVISOR_GUARD_BENCH=1; numbers in
// docs/performance.md): load time of a page with 50 images, none cached, in
// a guarded world against a world without a policy, interleaved on one
// Chromium; and the coordinator's heap per guarded world.
func TestGuardCost(t *testing.T) {
	if os.Getenv("CDPVISOR_GUARD_BENCH") == "" {
		t.Skip("a measurement: run with CDPVISOR_GUARD_BENCH=1")
	}
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "no-store")
		var b strings.Builder
		b.WriteString("<!doctype html><title>50</title>")
		for i := range 50 {
			fmt.Fprintf(&b, `<img src="/img/%d?%s">`, i, r.URL.RawQuery)
		}
		fmt.Fprint(w, b.String())
	})
	mux.HandleFunc("/img/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(gif)
	})
	a := actortest.StartCounting(t, mux)
	inst := served.StartInstance(t, launch.Options{
		Browser:  launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium},
		Headless: true, ReadyTimeout: 20 * time.Second, StopGrace: 2 * time.Second,
	}, proxy.Spec{})
	ctx := served.Context(t)
	policy, _ := guard.ParsePolicy([]string{a.HostPort()}, nil)
	if _, err := inst.Worlds.MakeGuarded(ctx, "guarded", worlds.Network{Policy: policy}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Worlds.Make(ctx, "plain"); err != nil {
		t.Fatal(err)
	}
	out, err := actortest.NodeScript(t, 280*time.Second, "bench_guard.mjs", inst.Proxy.Endpoint()+"/context/guarded",
		inst.Proxy.Endpoint()+"/context/plain", a.URL+"/page", "30")
	if err != nil {
		t.Fatalf("bench_guard.mjs: %v %q", err, out)
	}
	var samples map[string][]float64
	if err := json.Unmarshal([]byte(out), &samples); err != nil {
		t.Fatal(err)
	}
	g, p := median(samples["guarded"]), median(samples["plain"])
	t.Logf("load of a page with 50 images, %d rounds interleaved: guarded median %.1f ms (p90 %.1f), plain %.1f ms (p90 %.1f); ratio %.3f",
		len(samples["guarded"]), g, pct(samples["guarded"], 0.9), p, pct(samples["plain"], 0.9), g/p)

	// Heap per guarded world (a guard is a listener, a server and a
	// transport), against worlds without a policy.
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	const n = 50
	ctx = served.Context(t) // the first one ran out with the loads
	before := heap()
	for i := range n {
		if _, err := inst.Worlds.Make(ctx, fmt.Sprintf("plain-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	mid := heap()
	for i := range n {
		if _, err := inst.Worlds.MakeGuarded(ctx, fmt.Sprintf("guarded-%d", i), worlds.Network{Policy: policy}, false); err != nil {
			t.Fatal(err)
		}
	}
	after := heap()
	t.Logf("coordinator heap: %d worlds without a policy +%d KiB (%.1f KiB each); %d guarded worlds +%d KiB (%.1f KiB each)",
		n, (int64(mid)-int64(before))/1024, float64(int64(mid)-int64(before))/1024/n, n, (int64(after)-int64(mid))/1024, float64(int64(after)-int64(mid))/1024/n)
}

func median(s []float64) float64 { return pct(s, 0.5) }

func pct(s []float64, p float64) float64 {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	return c[int(p*float64(len(c)-1))]
}
