package metrics

import (
	"fmt"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

// PprofPath is where serve --debug-pprof serves the Go runtime's
// profiles: GET PprofPath lists them, GET PprofPath+NAME sends one
// (heap, goroutine, allocs, …) in pprof's format, or as text with
// ?debug=1 (or 2, goroutines' stacks); ?gc=1 collects garbage before a heap
// profile. What a leak hunt needs, without net/http/pprof's package-level
// handlers on http.DefaultServeMux.
const PprofPath = "/debug/pprof/"

func serveProfile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "cdpvisor: profiles are read with GET", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, PprofPath)
	if name == "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		for _, p := range pprof.Profiles() {
			fmt.Fprintf(w, "%s %d\n", p.Name(), p.Count())
		}
		return
	}
	p := pprof.Lookup(name)
	if p == nil {
		http.Error(w, fmt.Sprintf("cdpvisor: no profile %q; GET %s lists them", name, PprofPath), http.StatusNotFound)
		return
	}
	debug, err := strconv.Atoi(r.URL.Query().Get("debug"))
	if r.URL.Query().Has("debug") && (err != nil || debug < 0 || debug > 2) {
		http.Error(w, "cdpvisor: ?debug= wants 0 (pprof's format), 1 or 2 (text)", http.StatusBadRequest)
		return
	}
	if name == "heap" && r.URL.Query().Get("gc") == "1" {
		runtime.GC()
	}
	if debug > 0 {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	} else {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+".pb.gz"))
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_ = p.WriteTo(w, debug) // a client that left mid-write has nothing to be told
}
