package worldcmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// printList writes the worlds, open and kept, as a table or JSON.
func printList(w io.Writer, list []worldapi.Status, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no worlds open or kept; make one with: cdpvisor world open NAME")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORLD\tENDPOINT\tPATH ENDPOINT\tCLIENTS\tPAGES\tKEPT\tRECORDED\tSIZE\tSAVED\tNETWORK")
	for _, ws := range list {
		endpoint := ws.Endpoint
		if !ws.Open && ws.Kept {
			endpoint = "(closed)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", ws.Name, endpoint, ws.PathEndpoint, ws.Clients, ws.Pages,
			yesNo(ws.Kept), yesNo(ws.Recorded), size(ws), saved(ws.SavedAt), network(ws.Policy))
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// size is a kept world's profile size, "-" before its first save.
func size(ws worldapi.Status) string {
	if ws.SavedAt == nil {
		return "-"
	}
	return byteSize(ws.SavedBytes)
}

// byteSize says a number of bytes for a person.
func byteSize(b int64) string {
	switch {
	case b < 1024:
		return fmt.Sprintf("%d B", b)
	case b < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(b)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1024*1024))
	}
}

// saved is when a kept world was last saved, in local time.
func saved(at *time.Time) string {
	if at == nil {
		return "-"
	}
	return at.Local().Format("2006-01-02 15:04:05")
}

// network says a world's network policy and upstream proxy in the table
// (the proxy as the coordinator lists it: without its credentials).
func network(p *worldapi.Policy) string {
	if p == nil {
		return "-"
	}
	var parts []string
	if len(p.AllowHosts) > 0 {
		parts = append(parts, "allow "+strings.Join(p.AllowHosts, ","))
	}
	if len(p.DenyHosts) > 0 {
		parts = append(parts, "deny "+strings.Join(p.DenyHosts, ","))
	}
	if p.Proxy != "" {
		parts = append(parts, "via "+p.Proxy)
	}
	if len(p.AllowFiles) > 0 {
		parts = append(parts, "files "+strings.Join(p.AllowFiles, ","))
	}
	if len(parts) == 0 {
		return "allow all" // a policy of no lists: private addresses denied
	}
	return strings.Join(parts, " ")
}
