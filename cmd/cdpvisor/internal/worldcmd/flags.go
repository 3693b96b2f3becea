package worldcmd

import (
	"flag"
	"fmt"
	"io"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Register puts world's flags on fs (the command line's parser says them,
// with their variables, in its help).
func (o *Options) Register(fs *flag.FlagSet) (logLevel, logFormat *string) {
	fs.StringVar(&o.Discover.StateFile, "state", "", "use only the coordinator of this state file")
	fs.StringVar(&o.Discover.StateDir, "state-dir", state.DefaultDir(), "where to look for the coordinators' state files")
	fs.StringVar(&o.Discover.Instance, "instance", "", "the worlds of this instance (an id from the coordinator's browser_instance tool); default: the default instance's")
	fs.DurationVar(&o.Discover.Timeout, "timeout", 0, "how long to wait for a running coordinator (0: look once)")
	fs.BoolVar(&o.JSON, "json", false, "list: print JSON")
	o.Seed.Register(fs)
	o.Policy.Register(fs)
	o.Record.Register(fs, "open: record the world (its pages and its clients' commands; world trace writes them); --record=false: a kept world's recording stops")
	fs.BoolVar(&o.Forget, "forget", false, "close: also delete the world's profile (its kept cookies and localStorage, its network policy), its journal and its recording")
	fs.StringVar(&o.Since, "since", "", "journal: the entries after this one (its seq) or after this RFC 3339 time; trace: what came after this RFC 3339 time, or this long ago (10m)")
	fs.BoolVar(&o.Follow, "follow", false, "journal: then print each new entry as it comes, until interrupted")
	fs.StringVar(&o.Output, "output", "", "export: write the storage state to this file (made private, 0600) instead of stdout; "+
		"trace: write the recording to this file (0600; - for stdout) instead of NAME-YYYYMMDD-HHMMSS.zip (.webm) here")
	fs.StringVar(&o.Format, "format", "", "trace: trace (a Playwright trace, the default) or webm (a video of the pages; needs ffmpeg)")
	logLevel = fs.String("log-level", "warn", "trace, debug, info, warn, error or disabled")
	logFormat = fs.String("log-format", "console", "json or console (logs go to stderr)")
	return logLevel, logFormat
}

// SplitArgs separates the flags from the words (the action and the name),
// which may come before, between and after them.
func SplitArgs(args []string) (flagArgs, words []string) {
	probe := flag.NewFlagSet("world", flag.ContinueOnError)
	probe.SetOutput(io.Discard)
	(&Options{}).Register(probe)
	for rest := args; ; {
		if err := probe.Parse(rest); err != nil {
			// The command line's parser reports it: the flags before the
			// words and the rest, whose flag it cannot read comes first.
			return append(flagArgs, rest...), words
		}
		flagArgs = append(flagArgs, rest[:len(rest)-probe.NArg()]...)
		if probe.NArg() == 0 {
			return flagArgs, words
		}
		words, rest = append(words, probe.Arg(0)), probe.Args()[1:]
	}
}

// Take reads the words: the action, then the name.
func (o *Options) Take(words []string) error {
	if len(words) > 2 {
		return usage(fmt.Errorf("world %s takes one name, not %q; run 'cdpvisor world --help'", words[0], words[2:]))
	}
	if len(words) > 0 {
		o.Action = words[0]
	}
	if len(words) > 1 {
		o.Name = words[1]
	}
	return nil
}
