package wall

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// unwalled is the doors of a test world without a guard: every door open.
type unwalled struct{}

func (unwalled) Walled() bool                           { return false }
func (unwalled) DoorURL(string) error                   { return nil }
func (unwalled) DoorFile(string) error                  { return nil }
func (unwalled) DoorDownloads(p string) (string, error) { return p, nil }

// benchWorld is a world that owns the context "W" and nothing else.
type benchWorld struct{ unwalled }

func (benchWorld) Name() string { return "bench" }
func (benchWorld) Context(context.Context, browser.Endpoint) (string, error) {
	return "W", nil
}
func (benchWorld) Owns(id string) bool                                  { return id == "W" }
func (benchWorld) Made() []string                                       { return nil }
func (benchWorld) AddMade(context.Context, int, string) error           { return nil }
func (benchWorld) Disposed(int, string)                                 {}
func (benchWorld) PreparePage(context.Context, int, string)             {}
func (benchWorld) BeforeClose(context.Context, int, string)             {}
func (benchWorld) Proxy() (string, string)                              { return "", "" }
func (benchWorld) CloseBrowser(context.Context, browser.Endpoint) error { return nil }
