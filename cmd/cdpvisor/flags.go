package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/seedflags"
)

var errHelp = errors.New("help shown")

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// envName is the environment variable of a flag: CDPVISOR_USER_DATA_DIR
// for --user-data-dir, except for the few in envOverrides.
func envName(flagName string) string {
	if v, ok := envOverrides[flagName]; ok {
		return v
	}
	return "CDPVISOR_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// commandLineOnly flags take no environment variable: what deletes or
// replaces is asked for on the command line each time, never left set in
// a shell.
var commandLineOnly = map[string]bool{"forget": true, "replace": true}

// onlyOnCommandLine: commandLineOnly, or a world's network policy, upstream
// proxy, folders or record switch (left in a shell's environment, any
// would apply to every world made there).
func onlyOnCommandLine(f *flag.Flag) bool {
	_, hosts := f.Value.(*seedflags.HostList)
	_, files := f.Value.(*seedflags.FileList)
	_, record := f.Value.(*recordflags.Switch) // a world's own switch, not serve's --record
	return commandLineOnly[f.Name] || hosts || files || record || f.Name == "proxy"
}

// envOverrides are install's variables, named for what they mean outside
// one command: the install directory is also where detection looks.
var envOverrides = map[string]string{
	"mirror": "CDPVISOR_BROWSER_MIRROR",
	"dir":    detect.InstallDirEnv,
}

// parseFlags parses args; a flag not given on the command line takes its
// environment variable (a repeatable flag's variable holds one value per
// line, or values split as a shell would: `--a "--user-agent=My Agent"`).
// --help prints the command's help on stdout.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard) // errors are ours to word
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout, fs)
			return &exitError{code: 0, err: errHelp}
		}
		return usageErr("%s; run 'cdpvisor %s --help' for its flags", flagError(fs, err), fs.Name())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := os.LookupEnv(envName(f.Name))
		if given[f.Name] || !ok || onlyOnCommandLine(f) {
			return
		}
		values := []string{v}
		if _, list := f.Value.(*listFlag); list {
			var err error
			if values, err = splitEnvList(v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %w", envName(f.Name), v, err))
				return
			}
		}
		for _, v := range values {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %s", envName(f.Name), v, valueReason(f)))
			}
		}
	})
	if len(errs) > 0 {
		return usageErr("%w", errors.Join(errs...))
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q for 'cdpvisor %s'; see 'cdpvisor %s --help'", fs.Arg(0), fs.Name(), fs.Name())
	}
	return nil
}

var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	invalidValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for flag -+([^:]*): `)
	missingValue  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// flagError words the flag package's errors with --flags, the value, and
// a suggestion for a misspelt flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		out := fmt.Sprintf("unknown flag --%s", m[1])
		if near := closest(m[1], names); near != "" {
			out += fmt.Sprintf(" (did you mean --%s?)", near)
		}
		return out + fmt.Sprintf("; 'cdpvisor %s' takes --%s", fs.Name(), strings.Join(names, ", --"))
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			return fmt.Sprintf("--%s %s: %s", m[2], m[1], valueReason(f))
		}
	}
	if m := missingValue.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("--%s needs a value", m[1])
	}
	return msg
}

// valueReason says what a flag's value should have been.
func valueReason(f *flag.Flag) string {
	if w, ok := f.Value.(interface{ Want() string }); ok { // a value that says what it takes (a size)
		return w.Want()
	}
	switch {
	case f.Name == "port":
		return "not a port (0 to 65535; 0 picks a free one)"
	case isKind[time.Duration](f):
		return "not a duration (e.g. 10s, 1m30s, 0)"
	case isKind[int](f):
		return "not a whole number"
	case isBool(f):
		return "not true or false"
	}
	return "not a valid value"
}

func isKind[T any](f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	_, ok = g.Get().(T)
	return ok
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// splitEnvList reads a repeatable flag's environment variable: one value
// per line when it has several lines, else words as a shell splits them
// ('single' and "double" quotes, backslash escapes).
func splitEnvList(v string) ([]string, error) {
	if strings.Contains(v, "\n") {
		var out []string
		for _, line := range strings.Split(v, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
		}
		return out, nil
	}
	var out []string
	var word strings.Builder
	inWord, quote := false, rune(0)
	for i := 0; i < len(v); i++ {
		c := rune(v[i])
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == '\'':
			word.WriteRune(c)
		case c == '\\' && i+1 < len(v) && quote != '\'':
			i++
			word.WriteByte(v[i])
			inWord = true
		case quote == '"':
			word.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote; quote as a shell would, or put one value per line", quote)
	}
	if inWord {
		out = append(out, word.String())
	}
	return out, nil
}

// closest is the candidate nearest to s (at most 2 edits away, or
// sharing its prefix), "" when none is.
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := editDistance(s, c)
		if strings.HasPrefix(c, s) && len(s) >= 3 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
