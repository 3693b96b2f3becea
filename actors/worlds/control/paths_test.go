package control_test

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The clients (worldapi) and the proxy that serves the worlds' scopes
// name one path.
func TestClientsAndProxyNameOnePrefix(t *testing.T) {
	if proxy.ScopePrefix != worldapi.PathPrefix {
		t.Fatalf("the proxy serves scopes at %q, the worlds' clients ask %q", proxy.ScopePrefix, worldapi.PathPrefix)
	}
}
