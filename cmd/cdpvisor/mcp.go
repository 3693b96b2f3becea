package main

import (
	"flag"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/crowdflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/mcptools"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
)

// runMCP is `cdpvisor mcp`: the coordinator of serve, with the MCP server
// (package mcptools) on stdin and stdout, until the host goes or a signal.
func runMCP(args []string, sys launch.System, stdin io.Reader, stdout, stderr io.Writer) error {
	var f supervisorFlags
	var rec recordflags.Coordinator
	var crowd crowdflags.Coordinator
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	f.register(fs)
	rec.Register(fs)
	crowd.Register(fs)
	instancePorts := fs.String("instance-ports", "", "port range for extra instances, e.g. 3301-3399 (default: any free port)")
	maxInstances := fs.Int("max-instances", 99, "most instances at once, the default one included")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	cfg, err := f.coordinatorConfig(sys, stderr)
	if err != nil {
		return err
	}
	if *instancePorts != "" {
		if cfg.InstancePorts, err = actors.ParsePortRange(*instancePorts); err != nil {
			return usageErr("--instance-ports: %w", err)
		}
	}
	if *maxInstances < 1 {
		return usageErr("--max-instances %d: want at least 1", *maxInstances)
	}
	cfg.MaxInstances = *maxInstances
	rec.Apply(&cfg)
	crowd.Apply(&cfg)
	c, err := actors.NewCoordinator(cfg)
	if err != nil {
		return err
	}
	ctx, stop := stopOnSignal(cfg.Log, "stopping: ending the MCP session, stopping the browsers, removing the state files",
		os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	// A host that dies without closing stdin leaves us reparented; on
	// Windows stdin's EOF is the sign.
	go proc.WatchParent(ctx, 500*time.Millisecond, func() {
		cfg.Log.Warn().Msg("the host process is gone; shutting down")
		stop()
	})
	cfg.Log.Info().Str("endpoint", c.Default().Proxy.Endpoint()).Str("state", c.StatePath()).
		Msg("MCP server on stdio; the browser starts on the first request")

	stdio := server.NewStdioServer(mcptools.New(c, sys, version))
	stdio.SetErrorLogger(actor.StdLogger(cfg.Log))
	// Listen returns at stdin EOF (the host went away) or when ctx ends
	// (a signal); it is called once: its reader cannot be restarted.
	if err := stdio.Listen(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		cfg.Log.Error().Err(err).Msg("MCP stdio")
	}
	stop()
	err = <-ran
	cfg.Log.Info().Msg("stopped")
	return err
}
