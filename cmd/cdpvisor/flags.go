package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
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
// for --user-data-dir.
func envName(flagName string) string {
	return "CDPVISOR_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseFlags parses args; a flag not given on the command line takes its
// environment variable. Repeatable flags split their variable on spaces.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage of cdpvisor %s (every flag also reads CDPVISOR_<FLAG>, e.g. %s):\n", fs.Name(), envName("port"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return &exitError{code: 0, err: errHelp}
		}
		return &exitError{code: 2, err: errHelp} // flag already said what was wrong
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := os.LookupEnv(envName(f.Name))
		if given[f.Name] || !ok {
			return
		}
		values := []string{v}
		if _, list := f.Value.(*listFlag); list {
			values = strings.Fields(v)
		}
		for _, v := range values {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: %w", envName(f.Name), v, err))
			}
		}
	})
	if len(errs) > 0 {
		return usageErr("bad environment variable: %w", errors.Join(errs...))
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q for 'cdpvisor %s'; see 'cdpvisor %s --help'", fs.Arg(0), fs.Name(), fs.Name())
	}
	return nil
}
