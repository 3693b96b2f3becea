package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// worldJournalAnswer is browser_context journal's structured answer.
// Fields in the order of their JSON names.
type worldJournalAnswer struct {
	Entries []journal.Entry `json:"entries"`
	Name    string          `json:"name"`
}

// worldJournal is browser_context journal: the world's journal after
// since, its entries in the structured answer and as JSON lines in the text.
func worldJournal(ctx context.Context, d deps, tool, name string, since any) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	s, err := sinceArg(since)
	if err != nil {
		return toolError(tool, err)
	}
	entries, err := d.c.Journal(ctx, name, s)
	if err != nil {
		return toolError(tool, err)
	}
	if entries == nil {
		entries = []journal.Entry{}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "world %s's journal: %d entr", name, len(entries))
	if len(entries) == 1 {
		b.WriteString("y")
	} else {
		b.WriteString("ies")
	}
	if s != "" {
		fmt.Fprintf(&b, " after %s", s)
	}
	if n := len(entries); n > 0 {
		fmt.Fprintf(&b, " (seq %d to %d; pass since %d for what comes next)", entries[0].Seq, entries[n-1].Seq, entries[n-1].Seq)
	}
	b.WriteString("\n")
	for i := range entries {
		line, _ := json.Marshal(&entries[i])
		b.Write(line)
		b.WriteString("\n")
	}
	return result(worldJournalAnswer{Entries: entries, Name: name}, b.String())
}

// sinceArg is since as the journal reads it: a number is a seq.
func sinceArg(since any) (string, error) {
	var s string
	switch v := since.(type) {
	case nil:
		return "", nil
	case string:
		s = v
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number, int, int64:
		s = fmt.Sprint(v)
	default:
		return "", fmt.Errorf("since: %w: %v", journal.ErrBadSince, since)
	}
	if _, err := journal.ParseSince(s); err != nil {
		return "", fmt.Errorf("since %s: %w", s, err)
	}
	return s, nil
}
