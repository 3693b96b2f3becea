package proxy

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// serveBiDiHTTP is the HTTP surface of a Firefox endpoint. Firefox serves
// no /json, so /json/version is cdpvisor's own and names the BiDi socket
// (what a client given only the endpoint, like Puppeteer's browserURL,
// reads); anything else is refused with where to connect.
func (p *Actor) serveBiDiHTTP(w http.ResponseWriter, r *http.Request, ep browser.Endpoint) {
	ws := "ws://" + r.Host + BiDiPath
	if r.URL.Path != "/json/version" && r.URL.Path != "/json/version/" {
		http.Error(w, fmt.Sprintf("cdpvisor: this endpoint runs %s over WebDriver BiDi, which has no %s; connect a BiDi client to %s",
			ep.Browser.Name, r.URL.Path, ws), http.StatusNotFound)
		return
	}
	product := "Firefox"
	if ep.Browser.Version != "" {
		product += "/" + ep.Browser.Version
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(map[string]string{
		"Browser":              product,
		"Protocol":             "webDriverBiDi",
		"webSocketDebuggerUrl": ws,
	})
}
