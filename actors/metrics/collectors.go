package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

var (
	messagesDesc = prometheus.NewDesc("cdpvisor_relay_messages_total",
		"CDP messages the relays forwarded, by direction (to_browser, to_client).", []string{"direction"}, nil)
	bytesDesc = prometheus.NewDesc("cdpvisor_relay_bytes_total",
		"Bytes of CDP messages the relays forwarded, by direction (to_browser, to_client).", []string{"direction"}, nil)
	handedOverDesc = prometheus.NewDesc("cdpvisor_relay_actor_messages_total",
		"CDP messages the relays' fast path left to their actor: subscriptions, and everything while a connection is not connected (recovery).", nil, nil)
	memoryDesc = prometheus.NewDesc("cdpvisor_browser_memory_bytes",
		"Resident memory of each running browser's whole process tree.", []string{"instance", "pid"}, nil)
)

// trafficCollector reads the relays' atomic counters at scrape time.
type trafficCollector struct{ t *relay.Traffic }

func (c trafficCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- messagesDesc
	ch <- bytesDesc
	ch <- handedOverDesc
}

func (c trafficCollector) Collect(ch chan<- prometheus.Metric) {
	counter := func(d *prometheus.Desc, v int64, dir string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), dir)
	}
	counter(messagesDesc, c.t.ToBrowserMessages.Load(), "to_browser")
	counter(messagesDesc, c.t.ToClientMessages.Load(), "to_client")
	counter(bytesDesc, c.t.ToBrowserBytes.Load(), "to_browser")
	counter(bytesDesc, c.t.ToClientBytes.Load(), "to_client")
	ch <- prometheus.MustNewConstMetric(handedOverDesc, prometheus.CounterValue, float64(c.t.HandedOver.Load()))
}

// memoryCollector measures the running browsers at scrape time.
type memoryCollector struct{ a *Actor }

func (c memoryCollector) Describe(ch chan<- *prometheus.Desc) { ch <- memoryDesc }

func (c memoryCollector) Collect(ch chan<- prometheus.Metric) {
	for instance, pid := range c.a.pids() {
		if rss, err := proc.GroupRSS(pid); err == nil && rss > 0 {
			ch <- prometheus.MustNewConstMetric(memoryDesc, prometheus.GaugeValue, float64(rss), instance, strconv.Itoa(pid))
		}
	}
}
