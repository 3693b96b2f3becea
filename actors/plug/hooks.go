package plug

import "github.com/cdpvisor/cdpvisor/actors/downloads"

// Every feature that hears of another through a hook of the other's spec
// (a nil hook: that feature is off) is told in turn, in the coordinator's
// order: these join them into the one hook the spec holds.

// Holds joins hooks of a human's takeover (liveview.Spec.OnHold).
func Holds(given ...func(instance, world string, held bool)) func(instance, world string, held bool) {
	var hooks []func(instance, world string, held bool)
	for _, h := range given {
		if h != nil {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return nil
	}
	return func(instance, world string, held bool) {
		for _, h := range hooks {
			h(instance, world, held)
		}
	}
}

// Downloads joins hooks of a download begun or finished
// (downloads.Spec.OnDownload).
func Downloads(given ...func(e downloads.Entry)) func(e downloads.Entry) {
	var hooks []func(e downloads.Entry)
	for _, h := range given {
		if h != nil {
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return nil
	}
	return func(e downloads.Entry) {
		for _, h := range hooks {
			h(e)
		}
	}
}
