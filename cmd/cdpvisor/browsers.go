package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

func runBrowsers(args []string, sys launch.System, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("browsers", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	protocol := fs.String("protocol", "", "list only the browsers of this protocol: cdp (the Chromium family, what serve runs by default) or bidi (Firefox)")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if p := launch.Protocol(*protocol); p != "" && p != launch.ProtocolCDP && p != launch.ProtocolBiDi {
		return usageErr("--protocol %q: want cdp or bidi", *protocol)
	}
	found := detect.DetectWithVersions(context.Background(), sys)
	if *protocol != "" {
		found = slices.DeleteFunc(found, func(b launch.Browser) bool { return b.Protocol() != launch.Protocol(*protocol) })
	}
	if *asJSON {
		list := make([]detect.Listed, len(found))
		for i, b := range found {
			list[i] = detect.ListedOf(b)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			return err
		}
	}
	if len(found) == 0 {
		// Exit 1, with --json too (after its []): "is there one?" is the
		// exit status, whatever the output's form.
		return noBrowser(sys, launch.Protocol(*protocol))
	}
	if *asJSON {
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tPROTOCOL\tCHANNEL\tSOURCE\tVERSION\tPATH")
	for _, b := range found {
		name := b.Name
		if b.Windows {
			name += " (Windows)" // seen from WSL, run through powershell.exe
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, b.Type, b.Protocol(), orDash(b.Channel), b.Source, orDash(b.Version), b.Path)
	}
	return tw.Flush()
}

// noBrowser is the error of an empty list: what resolving the browser
// asked for would say, with its fixes (what to install).
func noBrowser(sys launch.System, p launch.Protocol) error {
	want := "" // the default: the Chromium family
	if p == launch.ProtocolBiDi {
		want = string(launch.Firefox)
	}
	if _, err := detect.Resolve(sys, want); err != nil {
		return err
	}
	return fmt.Errorf("no browser of protocol %s is installed here", p) // not reached: Resolve finds what detection lists
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
