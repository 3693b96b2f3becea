package storage

import (
	"testing"

	"github.com/rs/zerolog"
)

// A page whose session detached (a tab a client closed) is forgotten; the
// other pages' sessions stay. (The actor fails what the session had
// pending: worlds' TestCommandsOfADetachedPageFailAtOnce.)
func TestADetachedPageIsForgotten(t *testing.T) {
	r := New(nil, nil, zerolog.Nop())
	r.pages["target"] = &pageSession{id: "gone"}
	r.pages["kept"] = &pageSession{id: "other"}
	r.PageGone("gone")
	if r.pages["target"] != nil || r.pages["kept"] == nil {
		t.Errorf("pages %v: want the page forgotten, the other kept", r.pages)
	}
}
