package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

func runBrowsers(args []string, sys launch.System, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("browsers", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	found := detect.DetectWithVersions(context.Background(), sys)
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
		_, err := detect.Resolve(sys, "") // not found: what to install
		return err
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

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
