package main

import (
	"sync"
)

// cleaner runs registered cleanups once each, last registered first. It is
// run at the end, on errors and on Ctrl-C (possibly from two goroutines).
type cleaner struct {
	mu  sync.Mutex
	fns []*cleanup
}

type cleanup struct {
	once sync.Once
	fn   func()
}

// add registers fn and returns a function that runs it now (once).
func (c *cleaner) add(fn func()) func() {
	cl := &cleanup{fn: fn}
	c.mu.Lock()
	c.fns = append(c.fns, cl)
	c.mu.Unlock()
	return func() { cl.once.Do(cl.fn) }
}

// run runs every cleanup not run yet, newest first.
func (c *cleaner) run() {
	c.mu.Lock()
	fns := append([]*cleanup(nil), c.fns...)
	c.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i].once.Do(fns[i].fn)
	}
}
