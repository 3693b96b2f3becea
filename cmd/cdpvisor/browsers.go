package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

func runBrowsers(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("browsers", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	found := chrome.DetectWithVersions(context.Background(), chrome.HostSystem())
	if *asJSON {
		if found == nil {
			found = []chrome.Browser{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(found)
	}
	if len(found) == 0 {
		_, err := chrome.Resolve(chrome.HostSystem(), "")
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tVERSION\tPATH")
	for _, b := range found {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Name, b.Type, b.Version, b.Path)
	}
	return tw.Flush()
}
