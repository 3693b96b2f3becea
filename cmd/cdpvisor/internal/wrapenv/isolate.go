package wrapenv

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/leases"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Isolate is wrap's --isolate[=NAME]: the child gets a world of its own, a
// browser context on the instance's shared browser at /context/NAME. A
// fresh one (no NAME) is the child's alone and closed once wrap has ended;
// a named one outlives the child, so a restarted child finds its pages and
// cookies.
type Isolate struct {
	On   bool
	Name string // "" with On: a fresh name
	// Seed is given to the world when it is made (or found), before the
	// child starts: a storage state, the user's browser's origins, another
	// world's.
	Seed worldapi.Seed
	// Policy is the world's network policy (--allow-host, --deny-host),
	// upstream proxy (--proxy) and folders (--allow-file), given at its
	// making; a world that cannot have them is not used. Replace replaces
	// the one a kept world keeps (--replace).
	Policy  worldapi.Policy
	Replace bool
	// Record is the world's record switch (--record, --record=false); nil:
	// as it was, or as the coordinator's --record says.
	Record *bool
}

// IsBoolFlag lets --isolate stand alone; a name is given as --isolate=NAME.
func (i *Isolate) IsBoolFlag() bool { return true }

func (i *Isolate) String() string {
	switch {
	case i == nil || !i.On:
		return ""
	case i.Name == "":
		return "true"
	}
	return i.Name
}

// Set takes the flag's value, or its variable's (CDPVISOR_ISOLATE): true or
// 1 for a fresh world, false or 0 for none, anything else a world's name,
// checked by Check once the flags are read (the flag package would word a
// refusal here as a boolean's).
func (i *Isolate) Set(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1":
		i.On, i.Name = true, ""
	case "false", "0", "":
		i.On, i.Name = false, ""
	default:
		i.On, i.Name = true, strings.TrimSpace(v)
	}
	return nil
}

// Check refuses a name that cannot be a world's, before anything starts.
func (i *Isolate) Check() error {
	if i.On && i.Name != "" {
		if err := worlds.CheckName(i.Name); err != nil {
			return fmt.Errorf("--isolate=%s: %w", i.Name, err)
		}
	}
	return nil
}

// FreshName is the name of a child's own world: agent- and 8 random
// letters and digits.
func FreshName() string { return worlds.FreshName() }

// Apply is the target the child gets: t itself without --isolate, else its
// world's. A fresh world on a coordinator in another process is leased to
// this one (lease), so that coordinator closes it once wrap has ended; a
// standalone coordinator ends with wrap, and its worlds with it.
func (i *Isolate) Apply(t state.Target, lease bool, command []string, log zerolog.Logger) (state.Target, error) {
	if !i.On {
		return t, nil
	}
	if t.Protocol == launch.ProtocolBiDi {
		return t, fmt.Errorf("--isolate: %s at %s runs Firefox over WebDriver BiDi; a world is a browser context of a Chromium-family browser over CDP: "+
			"leave out --isolate, or wrap against a Chromium instance", who(t), t.Endpoint)
	}
	name, fresh := i.Name, i.Name == ""
	if fresh {
		name = FreshName()
	}
	if fresh && lease {
		// Before the world is made: a wrap killed in between leaves a lease
		// of no world, which the coordinator removes.
		l := leases.Lease{Coordinator: t.State.PID, Holder: os.Getpid(), Instance: t.Instance, World: name}
		if _, err := leases.Take(filepath.Dir(t.Path), l); err != nil {
			return t, fmt.Errorf("--isolate: the coordinator could not be told to close world %s after this command: %w", name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), worldRequestWait)
	defer cancel()
	ws, err := worldapi.OpenWith(ctx, t.Endpoint, name, worldapi.OpenRequest{Seed: i.Seed, Policy: i.Policy, Replace: i.Replace, Record: i.Record})
	if errors.Is(err, worldapi.ErrPolicyKept) {
		err = remedy.With(err, worlds.FixReplace)
	}
	var w state.Target
	switch {
	case err != nil && !i.Policy.Empty():
		// Never a world without its guard: the child would reach anything.
		return t, fmt.Errorf("--isolate: world %s could not be given its network policy or upstream proxy: %w", name, err)
	case err != nil && !i.Seed.Empty():
		// A seed is never left behind: the child would start signed out.
		return t, fmt.Errorf("--isolate: world %s could not be seeded: %w", name, err)
	case err != nil && i.Record != nil:
		// Nor the switch: a world made on first use would not be recorded as asked.
		return t, fmt.Errorf("--isolate --record: world %s's record switch could not be set: %w", name, err)
	case err == nil && ws.Port != 0:
		w = WorldPort(t, ws)
	case err == nil, errors.Is(err, worldapi.ErrNoRequests), errors.Is(err, worldapi.ErrTokenNeeded):
		// Worlds without ports (an endpoint beyond loopback, or an older
		// coordinator): the path form, made on the child's first use.
		if w, err = World(t, name); err != nil {
			return t, err
		}
	default:
		return t, fmt.Errorf("--isolate: world %s: %w", name, err)
	}
	ends := "it stays open after the command (close it with cdpvisor world close " + name + ")"
	if fresh {
		ends = "closed once this wrap has ended"
	}
	log.Info().Str("world", name).Str("endpoint", w.Endpoint).Msgf("the command gets a world of its own, %s: %s", name, ends)
	if i.Record != nil && *i.Record && !ws.Recorded {
		log.Warn().Str("world", name).Msg("the coordinator did not say the world is recorded (is it older than recording?); 'cdpvisor world list' shows what is")
	}
	if ws.Seeded != nil {
		log.Info().Str("world", name).Int("cookies", ws.Seeded.Cookies).Int("origins", ws.Seeded.Origins).Msg("the world was seeded before the command started")
	}
	if w.Port == t.Port {
		warnWorldPlaceholders(command, w, name, log)
	}
	return w, nil
}

// worldRequestWait bounds the request that makes the world.
const worldRequestWait = 10 * time.Second

// WorldPort is t for a child in the world ws: its own port, endpoint and
// browser websocket, which any client reaches the world through, however
// it spells its URL.
func WorldPort(t state.Target, ws worldapi.Status) state.Target {
	t.Port, t.Endpoint, t.WS = ws.Port, ws.Endpoint, ws.WS
	return t
}

// World is t for a child in world name by path, where the world has no
// port: its endpoint and browser websocket under /context/NAME. Port stays
// the instance's: a port carries no path, so {cdp_port} and CDP_PORT reach
// the whole browser.
func World(t state.Target, name string) (state.Target, error) {
	ws, err := url.Parse(t.WS)
	if err != nil {
		return t, fmt.Errorf("the coordinator's websocket %q: %w", t.WS, err)
	}
	ws.Path = worldapi.PathPrefix + name + ws.Path
	t.Endpoint = strings.TrimSuffix(t.Endpoint, "/") + worldapi.PathPrefix + name
	t.WS = ws.String()
	return t, nil
}

// warnWorldPlaceholders says, on stderr, when the command would reach the
// whole browser instead of its world: {cdp_port} (a port, no path), and
// {cdp_endpoint} given to Puppeteer's browserURL (chrome-devtools-mcp's
// --browserUrl), which drops the path.
func warnWorldPlaceholders(command []string, t state.Target, name string, log zerolog.Logger) {
	if slices.ContainsFunc(command, func(a string) bool { return strings.Contains(a, "{cdp_port}") }) {
		log.Warn().Str("world", name).Msgf("the command uses {cdp_port}: a port carries no path, so a client that makes its URL from it "+
			"reaches the whole browser, not world %s; use {cdp_endpoint} (%s) or {cdp_ws} (%s)", name, t.Endpoint, t.WS)
	}
	for i, a := range command {
		if !strings.Contains(a, "{cdp_endpoint}") {
			continue
		}
		if isBrowserURLFlag(a) || (i > 0 && isBrowserURLFlag(command[i-1]) && !strings.Contains(command[i-1], "=")) {
			log.Warn().Str("world", name).Msgf("the command gives {cdp_endpoint} to --browserUrl: Puppeteer's browserURL (chrome-devtools-mcp's "+
				"--browserUrl) drops its path /context/%s and reaches the whole browser; give it the world's websocket instead: --wsEndpoint={cdp_ws}", name)
			return
		}
	}
}

// isBrowserURLFlag says an argument is chrome-devtools-mcp's --browserUrl
// (--browser-url, -u), with its value or before it.
func isBrowserURLFlag(a string) bool {
	flag, _, _ := strings.Cut(a, "=")
	switch strings.ToLower(flag) {
	case "--browserurl", "--browser-url", "-u":
		return true
	}
	return false
}

// who names t's instance.
func who(t state.Target) string {
	if t.Instance != "" {
		return "instance " + t.Instance
	}
	return "the default instance"
}
