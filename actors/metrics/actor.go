// Package metrics is the MetricsActor: a coordinator's Prometheus metrics,
// from its browsers' event streams (launches, exits by cause, launch time,
// the running pids for memory), its endpoints' client counts and the
// relays' traffic counters.
package metrics

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// Actor owns a registry of its own (never the global one: one coordinator,
// one set of metrics) and the little state the metrics need: when each
// instance's launch began and which browser pid runs.
type Actor struct {
	log      zerolog.Logger
	registry *prometheus.Registry
	events   chan browser.Event
	mailbox  chan request
	traffic  relay.Traffic

	launches      *prometheus.CounterVec
	exits         *prometheus.CounterVec
	clients       *prometheus.GaugeVec
	launchSeconds *prometheus.HistogramVec
}

// New makes the actor and registers its metrics.
func New(log zerolog.Logger) *Actor {
	a := &Actor{
		log:      log,
		registry: prometheus.NewRegistry(),
		events:   make(chan browser.Event, 64),
		mailbox:  make(chan request),
		launches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cdpvisor_browser_launches_total", Help: "Browser launches begun.",
		}, []string{"instance"}),
		exits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cdpvisor_browser_exits_total",
			Help: "Browser exits by cause: stopped, idle (planned); crash, hung, gone (not asked for).",
		}, []string{"instance", "cause"}),
		clients: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "cdpvisor_clients", Help: "CDP client connections open now.",
		}, []string{"instance"}),
		launchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "cdpvisor_browser_launch_seconds", Help: "Time from a launch's start to a browser ready for clients.",
			Buckets: []float64{0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2.5, 5, 10, 15},
		}, []string{"instance"}),
	}
	a.registry.MustRegister(a.launches, a.exits, a.clients, a.launchSeconds, trafficCollector{&a.traffic}, memoryCollector{a},
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return a
}

func (a *Actor) String() string { return "metrics" }

// MetricsPath is where the endpoint serves the metrics.
const MetricsPath = "/metrics"

// Mount is the metrics on the endpoint, at MetricsPath.
func (a *Actor) Mount() proxy.Mount { return proxy.Mount{Path: MetricsPath, Handler: a.Handler()} }

// Handler serves the metrics in the Prometheus text format.
func (a *Actor) Handler() http.Handler {
	return promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{ErrorLog: promLog{a.log}})
}

// Register adds metrics of a feature's own (plug.MetricsSource).
func (a *Actor) Register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := a.registry.Register(c); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
	}
	return nil
}

// Traffic is what the relays count into.
func (a *Actor) Traffic() *relay.Traffic { return &a.traffic }

// SetClients records an instance's client connections (from its proxy).
func (a *Actor) SetClients(instance string, n int) {
	a.clients.WithLabelValues(instance).Set(float64(n))
}

// Watch counts b's launches and exits from now on, without loss.
func (a *Actor) Watch(ctx context.Context, b *browser.Actor) error {
	if _, err := b.Subscribe(ctx, a.events, browser.Lossless); err != nil {
		return fmt.Errorf("the metrics could not watch %s: %w", b, err)
	}
	return nil
}

// Forget drops the series of a closed instance.
func (a *Actor) Forget(instance string) {
	a.launches.DeletePartialMatch(prometheus.Labels{"instance": instance})
	a.exits.DeletePartialMatch(prometheus.Labels{"instance": instance})
	a.clients.DeletePartialMatch(prometheus.Labels{"instance": instance})
	a.launchSeconds.DeletePartialMatch(prometheus.Labels{"instance": instance})
}

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in Serve.
type request interface{ isMetricsRequest() }

type runningPids struct{ reply chan map[string]int }

func (runningPids) isMetricsRequest() {}

// Serve consumes the browsers' events until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	started := map[string]time.Time{} // instance → when its launch began
	running := map[string]int{}       // instance → browser pid
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-a.events:
			switch ev := ev.(type) {
			case browser.Starting:
				a.launches.WithLabelValues(ev.Instance).Inc()
				started[ev.Instance] = time.Now()
			case browser.Ready:
				id := ev.Endpoint.Instance
				if t, ok := started[id]; ok {
					a.launchSeconds.WithLabelValues(id).Observe(time.Since(t).Seconds())
					delete(started, id)
				}
				if ev.Endpoint.Ownership == "launched" {
					running[id] = ev.Endpoint.Pid
				}
			case browser.LaunchFailed:
				delete(started, ev.Instance)
			case browser.Exited:
				a.exits.WithLabelValues(ev.Instance, ev.Record.Cause).Inc()
				delete(running, ev.Instance)
			}
		case m := <-a.mailbox:
			switch m := m.(type) {
			case runningPids:
				pids := make(map[string]int, len(running))
				for k, v := range running {
					pids[k] = v
				}
				m.reply <- pids
			default:
				actor.Unknown(a.log, a.String(), m)
			}
		}
	}
}

func (a *Actor) pids() map[string]int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pids, _ := actor.Ask(ctx, a.mailbox, func(r chan map[string]int) request { return runningPids{reply: r} })
	return pids
}

type promLog struct{ l zerolog.Logger }

func (p promLog) Println(v ...any) { p.l.Warn().Msg(fmt.Sprint(v...)) }
