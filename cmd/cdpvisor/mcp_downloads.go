package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
)

// download_wait's timeout_s, in seconds.
const (
	defaultWaitSeconds = 60
	maxWaitSeconds     = 300
)

// downloadToolDefs are the tools over an instance's downloads.
var downloadToolDefs = []toolDef{{
	name: "download_list", title: "List downloads",
	description: "List an instance's downloads, oldest first, across browser restarts: a JSON array of " +
		`{id, url, filename, path, state ("in_progress", "completed" or "canceled"), received_bytes, total_bytes}. ` +
		"path is where the file is (completed) or will be (in progress), in the instance's download dir (coordinator_status shows it).",
	params:   []param{instanceParam},
	readOnly: true, idempotent: true,
}, {
	name: "download_wait", title: "Wait for a download",
	description: "Wait until a download completes or is canceled and return its entry as JSON (see download_list). " +
		"Without id: the oldest download in progress, else the next one to begin (one that already finished is in download_list). " +
		"On timeout it fails and shows the download as it is then.",
	params: []param{
		{name: "id", want: "a string: a download id from download_list", schema: map[string]any{"type": "string",
			"description": "The download's id, from download_list. Leave out for the oldest download in progress, or else the next one to begin."}},
		instanceParam,
		{name: "timeout_s", want: fmt.Sprintf("a number of seconds, more than 0 and at most %d", maxWaitSeconds), schema: map[string]any{
			"type": "number", "exclusiveMinimum": 0, "maximum": maxWaitSeconds,
			"description": fmt.Sprintf("How long to wait, in seconds: more than 0, at most %d. Default %d.", maxWaitSeconds, defaultWaitSeconds)}},
	},
	readOnly: true,
}}

func (t tools) downloadList(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "download_list"
	var args struct {
		Instance any `json:"instance"`
	}
	if _, err := bind(req, &args); err != nil {
		return toolError(tool, err)
	}
	d, id, res := t.downloadsOf(ctx, tool, args.Instance)
	if res != nil {
		return res, nil
	}
	list, err := d.List(ctx)
	if err != nil {
		return toolError(tool, err)
	}
	text, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	return result(map[string]any{"instance": id, "download_dir": d.Dir(), "downloads": list}, string(text))
}

func (t tools) downloadWait(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "download_wait"
	var args struct {
		ID       *string  `json:"id"`
		Instance any      `json:"instance"`
		TimeoutS *float64 `json:"timeout_s"`
	}
	if _, err := bind(req, &args); err != nil {
		return toolError(tool, err)
	}
	seconds := float64(defaultWaitSeconds)
	if args.TimeoutS != nil {
		if f := *args.TimeoutS; f <= 0 || f > maxWaitSeconds {
			return toolErrorf(tool, "timeout_s %v is out of range: want more than 0 and at most %d seconds, or leave it out for %d",
				f, maxWaitSeconds, defaultWaitSeconds)
		}
		seconds = *args.TimeoutS
	}
	id := ""
	if args.ID != nil {
		if id = strings.TrimSpace(*args.ID); id == "" {
			return toolErrorf(tool, `id is empty: pass a download id from download_list, or leave id out for the oldest download in progress or the next one`)
		}
	}
	d, inst, res := t.downloadsOf(ctx, tool, args.Instance)
	if res != nil {
		return res, nil
	}
	wctx, cancel := context.WithTimeout(ctx, time.Duration(seconds*float64(time.Second)))
	defer cancel()
	e, err := d.Wait(wctx, id)
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
			return toolErrorf(tool, "timed out after %s s: no download began in instance %s; start one (click its link), then call download_wait again",
				after, inst)
		}
		now, _ := json.Marshal(unfinished.Current)
		return toolErrorf(tool, "timed out after %s s; the download as it is now: %s", after, now)
	}
	return toolError(tool, err)
}

// downloadsOf finds the DownloadsActor of the instance ref names; res is
// the tool's error when there is none.
func (t tools) downloadsOf(ctx context.Context, tool string, ref any) (d *downloads.Actor, id string, res *mcp.CallToolResult) {
	r, err := instanceRef("instance", ref)
	if err != nil {
		res, _ = toolError(tool, err)
		return nil, "", res
	}
	inst, err := t.c.Instance(ctx, r)
	if err != nil {
		res, _ = refError(tool, "instance", err)
		return nil, "", res
	}
	return inst.Downloads, inst.ID, nil
}
