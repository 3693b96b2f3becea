package guard

import (
	"io"
	"log"
	"maps"
	"sync"
)

// discardLog silences net/http's own error log (a client that hangs up
// mid-request is no news); the proxy logs what matters itself.
var discardLog = log.New(io.Discard, "", 0)

// HostCount is how often a world's requests reached or were denied one
// host:port.
type HostCount struct {
	Reached int `json:"reached"`
	Denied  int `json:"denied"`
}

// maxHosts bounds the hosts counted one by one; the rest share otherHosts.
const maxHosts = 1024

const otherHosts = "(other hosts)"

// counts is the proxy's tally by host, written by its request goroutines
// (a mutex: they are many and short, and nobody waits on it).
type counts struct {
	mu     sync.Mutex
	m      map[string]*HostCount
	onHost func(host string, c HostCount) // nil: nobody hears
}

// news says a count is worth telling: 1, 10, 100, …
func news(n int) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}

// tell passes a host's counts on when n, the one that grew, is news.
func (c *counts) tell(host string, e HostCount, n int) {
	if c.onHost != nil && news(n) {
		c.onHost(host, e)
	}
}

func (c *counts) entry(host string) *HostCount {
	e := c.m[host]
	if e == nil {
		if len(c.m) >= maxHosts {
			host = otherHosts
			if e = c.m[host]; e != nil {
				return e
			}
		}
		e = &HostCount{}
		c.m[host] = e
	}
	return e
}

func (c *counts) reached(host string) {
	c.mu.Lock()
	e := c.entry(host)
	e.Reached++
	got := *e
	c.mu.Unlock()
	c.tell(host, got, got.Reached)
}

// denied counts a denial and answers how many the host has had.
func (c *counts) denied(host string) int {
	c.mu.Lock()
	e := c.entry(host)
	e.Denied++
	got := *e
	c.mu.Unlock()
	c.tell(host, got, got.Denied)
	return got.Denied
}

// Counts reports the tally by host:port so far.
func (p *Proxy) Counts() map[string]HostCount {
	p.counts.mu.Lock()
	defer p.counts.mu.Unlock()
	out := make(map[string]HostCount, len(p.counts.m))
	for h, e := range maps.All(p.counts.m) {
		out[h] = *e
	}
	return out
}
