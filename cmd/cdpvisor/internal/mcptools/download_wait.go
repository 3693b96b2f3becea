package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
)

// download_wait's timeout_s, in seconds.
const (
	defaultWaitSeconds = 60
	maxWaitSeconds     = 300
)

// downloadWaitArgs are download_wait's arguments.
type downloadWaitArgs struct {
	ID       *string  `json:"id"`
	Instance any      `json:"instance"`
	Context  *string  `json:"context"`
	TimeoutS *float64 `json:"timeout_s"`
}

// downloadWait is download_wait: wait for a download to end and answer its
// entry (a downloads.Entry, as download_list lists it).
func downloadWait(d deps) server.ServerTool {
	def := toolDef{
		name: "download_wait", title: "Wait for a download",
		description: "Wait until a download completes or is canceled and return its entry as JSON (see download_list). " +
			"Without id: the oldest download in progress, else the next one to begin (one that already finished is in download_list); with context, that world's. " +
			"On timeout it fails and shows the download as it is then.",
		params: []param{
			{name: "id", want: "a string: a download id from download_list", schema: map[string]any{"type": "string",
				"description": "The download's id, from download_list. Leave out for the oldest download in progress, or else the next one to begin."}},
			instanceParam,
			contextParam,
			{name: "timeout_s", want: fmt.Sprintf("a number of seconds, more than 0 and at most %d", maxWaitSeconds), schema: map[string]any{
				"type": "number", "exclusiveMinimum": 0, "maximum": maxWaitSeconds,
				"description": fmt.Sprintf("How long to wait, in seconds: more than 0, at most %d. Default %d.", maxWaitSeconds, defaultWaitSeconds)}},
		},
		readOnly: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args downloadWaitArgs) (*mcp.CallToolResult, error) {
		seconds := float64(defaultWaitSeconds)
		if args.TimeoutS != nil {
			if f := *args.TimeoutS; f <= 0 || f > maxWaitSeconds {
				return toolErrorf(def.name, "timeout_s %v is out of range: want more than 0 and at most %d seconds, or leave it out for %d",
					f, maxWaitSeconds, defaultWaitSeconds)
			}
			seconds = *args.TimeoutS
		}
		id := ""
		if args.ID != nil {
			if id = strings.TrimSpace(*args.ID); id == "" {
				return toolErrorf(def.name, `id is empty: pass a download id from download_list, or leave id out for the oldest download in progress or the next one`)
			}
		}
		world, err := worldArg(args.Context)
		if err != nil {
			return toolError(def.name, err)
		}
		dl, inst, res := downloadsOf(ctx, d, def.name, args.Instance)
		if res != nil {
			return res, nil
		}
		wctx, cancel := context.WithTimeout(ctx, time.Duration(seconds*float64(time.Second)))
		defer cancel()
		e, err := dl.WaitIn(wctx, world, id)
		var unfinished *downloads.NotFinishedError
		switch {
		case err == nil:
			text, err := json.Marshal(e)
			if err != nil {
				return nil, err
			}
			return result(e, string(text))
		case errors.As(err, &unfinished) && ctx.Err() == nil: // our timeout, not the client's cancel
			after := strconv.FormatFloat(seconds, 'f', -1, 64)
			if unfinished.Current == nil {
				where := "instance " + inst
				if world != "" {
					where = "world " + world + " of " + where
				}
				return toolErrorf(def.name, "timed out after %s s: no download began in %s; start one (click its link), then call download_wait again",
					after, where)
			}
			now, _ := json.Marshal(unfinished.Current)
			return toolErrorf(def.name, "timed out after %s s; the download as it is now: %s", after, now)
		}
		return toolError(def.name, err)
	})
}
