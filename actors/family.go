package actors

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// ErrFamilySwitch refuses to switch an instance to a browser of the other
// protocol: an endpoint keeps the protocol it was made with, since the
// clients and wrapped servers holding its URLs speak that one.
var ErrFamilySwitch = errors.New("an endpoint keeps its protocol")

// checkFamily refuses a change to a browser whose protocol is not the
// instance's, saying how to get one: an instance of its own.
func (c *Coordinator) checkFamily(inst *Instance, change browser.Change) error {
	if change.Browser == nil || strings.TrimSpace(*change.Browser) == "" {
		return nil // "": the instance's launcher picks a browser of its family
	}
	b, err := launchers.Any{Sys: c.cfg.Sys}.Resolve(*change.Browser)
	if err != nil {
		return err
	}
	if b.Protocol() == inst.Protocol {
		return nil
	}
	serves := fmt.Sprintf("CDP (a Chromium-family browser) at %s", inst.Proxy.Endpoint())
	speaks, other := "WebDriver BiDi", "serves BiDi at ws://127.0.0.1:PORT"+proxy.BiDiPath
	if inst.Protocol == launch.ProtocolBiDi {
		serves = fmt.Sprintf("WebDriver BiDi (Firefox) at %s", inst.Proxy.BrowserWS())
		speaks, other = "CDP", "serves CDP at http://127.0.0.1:PORT"
	}
	err = fmt.Errorf("%w: instance %s serves %s, and %s (%s) speaks %s; the clients and wrapped servers given this endpoint would break",
		ErrFamilySwitch, inst.ID, serves, b.Name, b.Path, speaks)
	fixes := []remedy.Fix{{Do: remedy.NewInstance, Value: *change.Browser, Text: "(it " + other + ")"}}
	if inst == c.def {
		fixes = append(fixes, remedy.Fix{Do: remedy.AtStart, Setting: remedy.Browser, Value: string(b.Type),
			Text: "to make that the default instance's browser"})
	}
	return remedy.With(err, fixes...)
}

// InstanceOfFamily is where a browser of the other family goes when the
// default instance is asked for it: the first instance whose endpoint
// serves that browser's protocol, or a new one (created true). The default
// endpoint keeps its protocol.
func (c *Coordinator) InstanceOfFamily(ctx context.Context, change browser.Change) (inst *Instance, created bool, err error) {
	if change.Browser == nil {
		return nil, false, errors.New("no browser named")
	}
	b, err := launchers.Any{Sys: c.cfg.Sys}.Resolve(*change.Browser)
	if err != nil {
		return nil, false, err
	}
	for _, inst := range c.registry.All(ctx) {
		if inst.Protocol == b.Protocol() {
			return inst, false, nil
		}
	}
	inst, err = c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: change.Browser, Headless: change.Headless}})
	return inst, err == nil, err
}
