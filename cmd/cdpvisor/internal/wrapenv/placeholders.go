// Package wrapenv is what `cdpvisor wrap` gives its child: the endpoint it
// is pointed at (an instance's, or with --isolate a world's on it), filled
// into its command line as placeholders and exported as CDP_* and
// BIDI_ENDPOINT variables, and the warnings about placeholders that would
// not reach what the child expects.
package wrapenv

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// The placeholders wrap fills into the command, with the variables of the
// same values it exports. The CDP ones are empty for a Firefox instance
// (its endpoint serves no CDP), {bidi_endpoint} for a Chromium one.
var (
	cdpPlaceholders  = []string{"{cdp_port}", "{cdp_endpoint}", "{cdp_ws}"}
	bidiPlaceholders = []string{"{bidi_endpoint}"}
)

// Values are the values of every placeholder, and the variables exported
// to the child, for target t.
func Values(t state.Target) (values map[string]string, env []string) {
	values = map[string]string{"{cdp_port}": "", "{cdp_endpoint}": "", "{cdp_ws}": "", "{bidi_endpoint}": ""}
	if t.Protocol == launch.ProtocolBiDi {
		values["{bidi_endpoint}"] = t.WS
	} else {
		values["{cdp_port}"], values["{cdp_endpoint}"], values["{cdp_ws}"] = strconv.Itoa(t.Port), t.Endpoint, t.WS
	}
	// Set even when empty: a CDP_WS inherited from elsewhere must not
	// point a child at another endpoint.
	env = []string{
		"CDP_PORT=" + values["{cdp_port}"], "CDP_ENDPOINT=" + values["{cdp_endpoint}"], "CDP_WS=" + values["{cdp_ws}"],
		"BIDI_ENDPOINT=" + values["{bidi_endpoint}"],
	}
	return values, env
}

// Substitute replaces the placeholders in every argument.
func Substitute(command []string, t state.Target) []string {
	values, _ := Values(t)
	var pairs []string
	for _, p := range slices.Concat(cdpPlaceholders, bidiPlaceholders) {
		pairs = append(pairs, p, values[p])
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(command))
	for i, a := range command {
		out[i] = r.Replace(a)
	}
	return out
}

// WarnProtocolMismatch says, on stderr, when the command uses placeholders
// of the protocol the endpoint does not serve: they are empty, and the
// child would fail in ways of its own.
func WarnProtocolMismatch(command []string, t state.Target, log zerolog.Logger) {
	empty, use, serves := cdpPlaceholders, "{bidi_endpoint} ("+t.WS+")", "Firefox, which speaks WebDriver BiDi, not CDP"
	if t.Protocol != launch.ProtocolBiDi {
		empty, use, serves = bidiPlaceholders, "{cdp_endpoint} or {cdp_ws}", "a Chromium-family browser, which speaks CDP, not WebDriver BiDi"
	}
	var used []string
	for _, p := range empty {
		if slices.ContainsFunc(command, func(a string) bool { return strings.Contains(a, p) }) {
			used = append(used, p)
		}
	}
	if len(used) == 0 {
		return
	}
	names, are := strings.Join(used, ", "), "is"
	if len(used) > 1 {
		are = "are"
	}
	log.Warn().Strs("placeholders", used).Str("endpoint", t.Endpoint).Str("protocol", string(t.Protocol)).
		Msgf("the command uses %s, but %s at %s runs %s: %s %s empty; use %s", names, who(t), t.Endpoint, serves, names, are, use)
}
