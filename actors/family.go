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

// FamilyLaunch is a browser of the other family than the default
// instance's, launched behind an endpoint of its own, and what the default
// endpoint keeps serving for the clients holding its URLs.
type FamilyLaunch struct {
	Launched Relaunched
	// Instance is the instance of that family it went to; it is set once
	// one was found or made, even when the launch there failed.
	Instance string
	Created  bool // that instance was made for this launch
	Default  Serving
}

// Serving is what an instance's endpoint serves and where a client of that
// protocol connects.
type Serving struct {
	Instance string
	Protocol launch.Protocol
	URL      string // the endpoint for CDP; its /session socket for WebDriver BiDi
}

// LaunchOfFamily launches a browser that the default instance refuses with
// ErrFamilySwitch in the first instance whose endpoint serves its protocol,
// or in a new one: the default endpoint never changes protocol under its
// clients.
func (c *Coordinator) LaunchOfFamily(ctx context.Context, change browser.Change, progress Progress) (FamilyLaunch, error) {
	out := FamilyLaunch{Default: Serving{Instance: c.def.ID, Protocol: c.def.Protocol, URL: c.def.Proxy.Endpoint()}}
	if c.def.Protocol == launch.ProtocolBiDi {
		out.Default.URL = c.def.Proxy.BrowserWS()
	}
	inst, created, err := c.instanceOfFamily(ctx, change)
	if err != nil {
		return out, err
	}
	out.Instance, out.Created = inst.ID, created
	if out.Launched, err = c.LaunchBrowser(ctx, inst.ID, change, progress); err != nil {
		return out, err
	}
	return out, nil
}

// instanceOfFamily is the first instance whose endpoint serves the
// protocol of the browser change names, or a new one (created true).
func (c *Coordinator) instanceOfFamily(ctx context.Context, change browser.Change) (inst *Instance, created bool, err error) {
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
