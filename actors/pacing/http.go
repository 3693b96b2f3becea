package pacing

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
)

// PressurePath is where every endpoint tells an instance's pressure.
const PressurePath = "/cdpvisor/pressure"

// pressureHandler answers GET PressurePath: the instance ?instance=ID
// names, else the instance whose endpoint was asked, else the default one.
type pressureHandler struct{ a *Actor }

func (h pressureHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "cdpvisor: "+PressurePath+" is read with GET", http.StatusMethodNotAllowed)
		return
	}
	ref := r.URL.Query().Get("instance")
	named := ref != ""
	if !named {
		if _, port, err := net.SplitHostPort(r.Host); err == nil {
			ref = port
		}
	}
	p, err := h.a.Pressure(r.Context(), ref)
	if !named && errors.Is(err, ErrUnknownInstance) {
		p, err = h.a.Pressure(r.Context(), "")
	}
	if err != nil {
		code := http.StatusServiceUnavailable
		if errors.Is(err, ErrUnknownInstance) {
			code = http.StatusNotFound
		}
		http.Error(w, "cdpvisor: "+err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(p)
}
