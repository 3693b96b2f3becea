package mcptools

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
)

// downloadListArgs are download_list's arguments.
type downloadListArgs struct {
	Instance any `json:"instance"`
}

// downloadsAnswer is download_list's structured answer. Fields in the
// order of their JSON names.
type downloadsAnswer struct {
	DownloadDir string            `json:"download_dir"`
	Downloads   []downloads.Entry `json:"downloads"`
	Instance    string            `json:"instance"`
}

// downloadList is download_list: an instance's downloads, oldest first.
func downloadList(d deps) server.ServerTool {
	def := toolDef{
		name: "download_list", title: "List downloads",
		description: "List an instance's downloads, oldest first, across browser restarts: a JSON array of " +
			`{id, url, filename, path, state ("in_progress", "completed" or "canceled"), received_bytes, total_bytes}. ` +
			"path is where the file is (completed) or will be (in progress), in the instance's download dir (coordinator_status shows it).",
		params:   []param{instanceParam},
		readOnly: true, idempotent: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args downloadListArgs) (*mcp.CallToolResult, error) {
		dl, id, res := downloadsOf(ctx, d, def.name, args.Instance)
		if res != nil {
			return res, nil
		}
		list, err := dl.List(ctx)
		if err != nil {
			return toolError(def.name, err)
		}
		// The text is the bare list, as the description promises.
		text, err := json.Marshal(list)
		if err != nil {
			return nil, err
		}
		return result(downloadsAnswer{DownloadDir: dl.Dir(), Downloads: list, Instance: id}, string(text))
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
