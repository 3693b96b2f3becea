package main

import (
	"context"
	"flag"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/transport"
)

// tokenEnv holds the token of an endpoint beyond loopback when no
// --token-file is given (a Kubernetes Secret as an environment variable).
const tokenEnv = "CDPVISOR_TOKEN"

// fleetFlags are serve's flags for an endpoint beyond loopback, a replica
// of a fleet: where it listens, its token, the names it is served under,
// and how long SIGTERM drains.
type fleetFlags struct {
	listen     string
	tokenFile  string
	allowHosts listFlag
	drain      time.Duration
}

func (f *fleetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", "", "ADDR:PORT to serve on instead of 127.0.0.1 (0.0.0.0:9222, a pod IP); beyond loopback it needs a token, asked of every request but /health/live and /health/ready")
	fs.StringVar(&f.tokenFile, "token-file", "", "file holding the token of --listen (else $"+tokenEnv+"); clients send Authorization: Bearer TOKEN, or ?token=TOKEN")
	fs.Var(&f.allowHosts, "allow-host", "a Host name the endpoint is served under besides loopback ones (repeatable; a Service's name)")
	fs.DurationVar(&f.drain, "drain-timeout", 30*time.Second, "with --listen: on SIGTERM, /health/ready turns 503 at once and connected clients are served this long at most before cdpvisor stops")
}

// apply checks the flags into cfg: beyond loopback only with a token.
func (f *fleetFlags) apply(cfg *actors.CoordinatorConfig, getenv func(string) string) error {
	if f.listen == "" {
		if len(f.allowHosts) > 0 {
			return usageErr("--allow-host needs --listen: on 127.0.0.1 the endpoint answers loopback names only")
		}
		return nil
	}
	host, portText, err := net.SplitHostPort(f.listen)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || port < 0 || port > 65535 || host == "" {
		return usageErr("--listen %q: want ADDR:PORT, e.g. 0.0.0.0:9222", f.listen)
	}
	token := getenv(tokenEnv)
	if f.tokenFile != "" {
		data, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return usageErr("--token-file: %w", err)
		}
		if token = strings.TrimSpace(string(data)); token == "" {
			return usageErr("--token-file %s is empty", f.tokenFile)
		}
	}
	if token == "" && !transport.IsLoopbackHost(f.listen) {
		return usageErr("--listen %s reaches beyond loopback: give it a token (--token-file FILE or $%s), which every request but /health/live and /health/ready must carry", f.listen, tokenEnv)
	}
	if strings.ContainsAny(token, " &\t\r\n") {
		return usageErr("the token may not hold spaces or '&'")
	}
	cfg.Listen, cfg.Port, cfg.Token, cfg.AllowHosts = host, port, token, f.allowHosts
	return nil
}

// drainThenStop ends run once stopping is done: at once, or, for an
// endpoint beyond loopback, after the coordinator's drain (DrainFor).
func (f *fleetFlags) drainThenStop(stopping, running context.Context, c *actors.Coordinator, run context.CancelFunc) {
	select {
	case <-stopping.Done():
	case <-running.Done(): // it stopped by itself
		return
	}
	if f.listen != "" && f.drain > 0 {
		c.DrainFor(running, f.drain)
	}
	run()
}
