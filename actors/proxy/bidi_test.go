package proxy_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// /session belongs to Firefox instances: a CDP endpoint refuses it with
// where to connect instead (the Firefox side is tested with firefox-esr in
// cmd/cdpvisor).
func TestBiDiSocketOfAChromiumEndpointIsRefused(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	_, resp, err := websocket.DefaultDialer.Dial(inst.WS()+proxy.BiDiPath, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("/session of a CDP endpoint: %v, %v; want 404", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "/session is the WebDriver BiDi socket of a Firefox instance") || !strings.Contains(string(body), "connect to /devtools/browser") {
		t.Errorf("refusal %q does not say why and where to go", body)
	}
}
