package pacing

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// The pressure's gauges in /metrics, by instance.
var (
	worldsDesc  = prometheus.NewDesc("cdpvisor_worlds", "Worlds open.", []string{"instance"}, nil)
	pagesDesc   = prometheus.NewDesc("cdpvisor_pages", "Pages of the open worlds.", []string{"instance"}, nil)
	runningDesc = prometheus.NewDesc("cdpvisor_loads_running", "Page loads of the worlds' clients running now (paced: at most --max-loads).", []string{"instance"}, nil)
	queuedDesc  = prometheus.NewDesc("cdpvisor_loads_queued", "Page loads of the worlds' clients waiting for their turn.", []string{"instance"}, nil)
	waitedDesc  = prometheus.NewDesc("cdpvisor_load_waited_milliseconds", "How long the page loads let go in the last minute waited for their turn.", []string{"instance", "quantile"}, nil)
	cpuDesc     = prometheus.NewDesc("cdpvisor_browser_cpu_percent", "The browser's processor use over the last seconds, in percent of one processor.", []string{"instance"}, nil)
	pssDesc     = prometheus.NewDesc("cdpvisor_browser_pss_bytes", "The browser's proportional memory (PSS), every process of it.", []string{"instance"}, nil)
	availDesc   = prometheus.NewDesc("cdpvisor_available", "1 while the instance takes a new world (under --max-worlds), else 0.", []string{"instance"}, nil)
)

// scrapeWait bounds the pressure's part of a scrape.
const scrapeWait = 3 * time.Second

func (a *Actor) Collectors() []prometheus.Collector { return []prometheus.Collector{collector{a}} }

type collector struct{ a *Actor }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{worldsDesc, pagesDesc, runningDesc, queuedDesc, waitedDesc, cpuDesc, pssDesc, availDesc} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeWait)
	defer cancel()
	list, err := actor.Ask(ctx, c.a.mailbox, func(r chan []plug.Instance) request { return askInstances{reply: r} })
	if err != nil {
		return
	}
	for _, inst := range list {
		p, err := c.a.Pressure(ctx, inst.ID)
		if err != nil {
			continue
		}
		gauge := func(d *prometheus.Desc, v float64, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{inst.ID}, labels...)...)
		}
		gauge(worldsDesc, float64(p.Worlds))
		gauge(pagesDesc, float64(p.Pages))
		gauge(runningDesc, float64(p.LoadsRunning))
		gauge(queuedDesc, float64(p.LoadsQueued))
		gauge(waitedDesc, p.WaitedMS.P50, "0.5")
		gauge(waitedDesc, p.WaitedMS.P99, "0.99")
		if p.BrowserCPUPercent != nil {
			gauge(cpuDesc, *p.BrowserCPUPercent)
		}
		if p.BrowserMemoryBytes > 0 {
			gauge(pssDesc, float64(p.BrowserMemoryBytes))
		}
		avail := 0.0
		if p.IsAvailable {
			avail = 1
		}
		gauge(availDesc, avail)
	}
}
