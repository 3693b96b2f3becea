package pacing

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Pressure is how hard pressed an instance is: GET /cdpvisor/pressure,
// its gauges in /metrics, its part of coordinator_status.
type Pressure struct {
	Instance string `json:"instance"`
	Worlds   int    `json:"worlds"`
	// MaxWorlds is serve --max-worlds; 0: no limit.
	MaxWorlds int `json:"max_worlds"`
	// Pages are the pages of its worlds.
	Pages        int `json:"pages"`
	LoadsRunning int `json:"loads_running"`
	LoadsQueued  int `json:"loads_queued"`
	// MaxLoads is the loads it runs at once (serve --max-loads); 0: no
	// pacing.
	MaxLoads int `json:"max_loads"`
	// WaitedMS is how long the loads let go in the last minute waited.
	WaitedMS Waited `json:"waited_ms"`
	// BrowserCPUPercent is its browser's processor use over the last
	// seconds, in percent of one processor; nil: not known (no browser
	// runs, or not on this system).
	BrowserCPUPercent *float64 `json:"browser_cpu_percent"`
	// BrowserMemoryBytes is its browser's memory, every process of it:
	// proportional (PSS) where the system tells it, else resident; 0: no
	// browser runs.
	BrowserMemoryBytes int64 `json:"browser_memory_bytes"`
	// IsAvailable: it takes a new world (fewer than MaxWorlds are open).
	IsAvailable bool `json:"is_available"`
}

// Waited are the median and 99th percentile of the waits, in
// milliseconds, and how many loads they are of.
type Waited struct {
	P50   float64 `json:"p50"`
	P99   float64 `json:"p99"`
	Loads int     `json:"loads"`
}

// Pressure reads an instance's pressure of the moment ("": the default
// instance; a port: the instance whose endpoint it is; else an id). It
// asks the instance's worlds and reads its browser's memory, off the
// actor.
func (a *Actor) Pressure(ctx context.Context, ref string) (Pressure, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan figuresAnswer) request { return askFigures{ref: ref, now: time.Now(), reply: r} })
	if err == nil {
		err = got.err
	}
	if err != nil {
		return Pressure{}, err
	}
	f, inst := got.f, got.inst
	p := Pressure{
		Instance: inst.ID, LoadsRunning: f.running, LoadsQueued: f.queued, MaxLoads: max(0, a.spec.MaxLoads),
		WaitedMS: Waited{P50: ms(f.p50), P99: ms(f.p99), Loads: f.waited},
	}
	if !math.IsNaN(f.cpuPercent) {
		cpu := math.Round(f.cpuPercent*10) / 10
		p.BrowserCPUPercent = &cpu
	}
	p.IsAvailable = true
	if inst.Worlds != nil {
		// The WorldsActor keeps the limit (it refuses a world past it).
		if p.Worlds, p.MaxWorlds, err = inst.Worlds.Room(ctx); err != nil {
			return Pressure{}, fmt.Errorf("the worlds of instance %s: %w", inst.ID, err)
		}
		p.IsAvailable = p.MaxWorlds <= 0 || p.Worlds < p.MaxWorlds
		list, err := inst.Worlds.List(ctx)
		if err != nil {
			return Pressure{}, fmt.Errorf("the worlds of instance %s: %w", inst.ID, err)
		}
		for _, s := range list {
			p.Pages += s.Pages
		}
	}
	if inst.Browser == nil {
		return p, nil
	}
	if st, err := inst.Browser.Status(ctx); err == nil && st.Pid != 0 {
		if pss, err := proc.GroupPSS(st.Pid); err == nil {
			p.BrowserMemoryBytes = pss
		}
	}
	return p, nil
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/float64(time.Millisecond)*10) / 10 }

// String is the pressure in a line, for coordinator_status's text.
func (p Pressure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pressure: %d world(s)", p.Worlds)
	if p.MaxWorlds > 0 {
		fmt.Fprintf(&b, " of at most %d", p.MaxWorlds)
	}
	fmt.Fprintf(&b, ", %d page(s); page loads: %d running, %d waiting their turn", p.Pages, p.LoadsRunning, p.LoadsQueued)
	if p.MaxLoads > 0 {
		fmt.Fprintf(&b, " (%d at once)", p.MaxLoads)
	} else {
		b.WriteString(" (not paced)")
	}
	if p.WaitedMS.Loads > 0 {
		fmt.Fprintf(&b, ", waited p50 %g ms, p99 %g ms over the last minute's %d", p.WaitedMS.P50, p.WaitedMS.P99, p.WaitedMS.Loads)
	}
	if p.BrowserCPUPercent != nil {
		fmt.Fprintf(&b, "; browser %g%% CPU", *p.BrowserCPUPercent)
	}
	if p.BrowserMemoryBytes > 0 {
		fmt.Fprintf(&b, ", %d MB", p.BrowserMemoryBytes>>20)
	}
	if !p.IsAvailable {
		b.WriteString("; full: a new world is refused")
	}
	return b.String()
}
