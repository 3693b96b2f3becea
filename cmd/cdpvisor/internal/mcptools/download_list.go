package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// downloadListArgs are download_list's arguments.
type downloadListArgs struct {
	Instance any     `json:"instance"`
	Context  *string `json:"context"`
}

// downloadsAnswer is download_list's structured answer. Fields in the
// order of their JSON names.
type downloadsAnswer struct {
	Context     string            `json:"context,omitempty"` // the world asked about
	DownloadDir string            `json:"download_dir"`      // where those downloads land
	Downloads   []downloads.Entry `json:"downloads"`
	Instance    string            `json:"instance"`
}

// contextParam is the download tools' choice of a world.
var contextParam = param{name: "context", want: nameWant, schema: map[string]any{"type": "string",
	"description": "A world's name, as in /context/NAME: only that world's downloads, which land in a folder of its own (NAME) in the instance's download dir. " +
		"Leave out for all of the instance's downloads."}}

// worldArg reads the context argument: a world's name, or "" left out.
func worldArg(v *string) (string, error) {
	if v == nil {
		return "", nil
	}
	name := strings.TrimSpace(*v)
	if err := worlds.CheckName(name); err != nil {
		return "", fmt.Errorf("argument \"context\": %w; leave it out for all of the instance's downloads", err)
	}
	return name, nil
}

// downloadList is download_list: an instance's downloads, oldest first.
func downloadList(d deps) server.ServerTool {
	def := toolDef{
		name: "download_list", title: "List downloads",
		description: "List an instance's downloads, oldest first, across browser restarts: a JSON array of " +
			`{id, url, filename, path, state ("in_progress", "completed" or "canceled"), received_bytes, total_bytes, context}. ` +
			"path is where the file is (completed) or will be (in progress), in the instance's download dir (coordinator_status shows it); " +
			"context is the world whose page began it (absent outside worlds), whose downloads land in a folder of its own there.",
		params:   []param{instanceParam, contextParam},
		readOnly: true, idempotent: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args downloadListArgs) (*mcp.CallToolResult, error) {
		world, err := worldArg(args.Context)
		if err != nil {
			return toolError(def.name, err)
		}
		dl, id, res := downloadsOf(ctx, d, def.name, args.Instance)
		if res != nil {
			return res, nil
		}
		list, err := dl.ListIn(ctx, world)
		if err != nil {
			return toolError(def.name, err)
		}
		// The text is the bare list, as the description promises.
		text, err := json.Marshal(list)
		if err != nil {
			return nil, err
		}
		return result(downloadsAnswer{Context: world, DownloadDir: downloads.WorldDir(dl.Dir(), world), Downloads: list, Instance: id}, string(text))
	})
}

// downloadsOf finds the DownloadsActor of the instance ref names, and that
// instance's id; res is the tool's error when there is none.
func downloadsOf(ctx context.Context, d deps, tool string, ref any) (dl *downloads.Actor, id string, res *mcp.CallToolResult) {
	r, err := instanceRef("instance", ref)
	if err != nil {
		res, _ = toolError(tool, err)
		return nil, "", res
	}
	inst, err := d.c.Instance(ctx, r)
	if err != nil {
		res, _ = refError(tool, "instance", err)
		return nil, "", res
	}
	return inst.Downloads, inst.ID, nil
}
