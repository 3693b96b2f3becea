package extensions

import "github.com/cdpvisor/cdpvisor/actors/browser"

// book is the extensions loaded through the endpoint, each with the
// browser generation that loaded it, and what the actor knows of the
// generations: an extension goes with its browser.
type book struct {
	loaded map[string]int // extension id → the generation that loaded it
	newest int            // the newest generation heard Ready
	exited int            // the newest generation heard to have exited
}

func newBook() *book { return &book{loaded: map[string]int{}} }

// load notes id as loaded by generation gen, unless gen is gone already
// (a late answer of an exited browser); it says whether it noted it.
func (b *book) load(id string, gen int) bool {
	if gen <= b.exited || gen < b.newest {
		return false
	}
	b.loaded[id] = gen
	return true
}

func (b *book) uninstall(id string) { delete(b.loaded, id) }

func (b *book) has(id string) bool {
	_, ok := b.loaded[id]
	return ok
}

// onBrowser forgets the extensions of every browser that is gone: one that
// exited, or older than one that is ready.
func (b *book) onBrowser(ev browser.Event) {
	switch ev := ev.(type) {
	case browser.Ready:
		b.newest = max(b.newest, ev.Endpoint.Generation)
		b.forget(func(gen int) bool { return gen < ev.Endpoint.Generation })
	case browser.Exited:
		b.exited = max(b.exited, ev.Generation)
		b.forget(func(gen int) bool { return gen <= ev.Generation })
	}
}

func (b *book) forget(gone func(gen int) bool) {
	for id, gen := range b.loaded {
		if gone(gen) {
			delete(b.loaded, id)
		}
	}
}
