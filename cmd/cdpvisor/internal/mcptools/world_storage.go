package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's storage through browser_context: open's seed, export and
// import. The seed is checked whole (control.SeedOf, whose errors name these
// arguments) before anything is made.

// seedRequest is open's seed from its arguments; storage_state may be an
// object or a string of its JSON.
func seedRequest(a contextArgs) (worldapi.Seed, error) {
	raw, err := storageStateArg(a.StorageState)
	if err != nil {
		return worldapi.Seed{}, err
	}
	req := worldapi.Seed{StorageState: raw, FromUserBrowser: a.FromUserBrowser, Origins: a.Origins}
	if a.FromWorld != nil {
		req.FromWorld = *a.FromWorld
	}
	return req, nil
}

// storageStateArg is storage_state as JSON: an object as given, a string
// unquoted.
func storageStateArg(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
		return nil, nil
	case raw[0] == '{':
		return raw, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("storage_state: %w", err)
		}
		return json.RawMessage(s), nil
	}
	return nil, fmt.Errorf("storage_state: %w: an object or a string of its JSON is expected, not %s; expected %s",
		storagestate.ErrNotStorageState, jsonKindOf(raw), storagestate.Expected)
}

// jsonKindOf names a JSON value's kind.
func jsonKindOf(raw json.RawMessage) string {
	switch raw[0] {
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// seedWorld checks the seed and gives it to the world called name, made
// if it is not open.
func seedWorld(ctx context.Context, d deps, id, name string, req worldapi.Seed) (worldapi.Status, error) {
	seed, err := control.SeedOf(name, req)
	if err != nil {
		return worldapi.Status{}, err
	}
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return worldapi.Status{}, err
	}
	return w.SeedWorld(ctx, name, seed)
}

// seedError words a refused seed: nothing was made or changed. The
// user's browser is the coordinator's start's to choose (its words name a
// flag, which a model cannot pass): said as the MCP host's setting.
func seedError(tool string, err error) (*mcp.CallToolResult, error) {
	refused := errors.Is(err, control.ErrBadSeed) || errors.Is(err, storagestate.ErrNotStorageState) ||
		errors.Is(err, worlds.ErrNotUsersBrowser) || errors.Is(err, worlds.ErrUnknownWorld)
	if errors.Is(err, worlds.ErrNotUsersBrowser) {
		err = remedy.With(errors.New("from_user_browser: copying from the user's browser needs the coordinator started on the user's own browser"),
			remedy.Fix{Do: remedy.AtStart, Setting: usersBrowserSetting, Value: "1"},
			remedy.Say("seed the world with storage_state or from_world instead"))
	}
	if refused {
		err = fmt.Errorf("%w; nothing was made or changed", err)
	}
	return toolError(tool, err)
}

// usersBrowserSetting is the coordinator's setting that puts it on the
// user's own browser (CDPVISOR_ATTACH).
const usersBrowserSetting remedy.Setting = "attach"

// importWorld is browser_context import: the storage state set into the
// world called name, made if it is not open.
func importWorld(ctx context.Context, d deps, tool, id, name string, raw json.RawMessage) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	st, err := storageStateArg(raw)
	if err != nil {
		return seedError(tool, err)
	}
	ws, err := seedWorld(ctx, d, id, name, worldapi.Seed{StorageState: st})
	if err != nil {
		return seedError(tool, err)
	}
	return worldOpened(id, name, ws, "")
}

// worldExportedAnswer is browser_context export's structured answer: the
// world's storage state, Playwright's format. Fields in the order of
// their JSON names.
type worldExportedAnswer struct {
	Instance     string             `json:"instance"`
	Name         string             `json:"name"`
	StorageState storagestate.State `json:"storage_state"`
}

// exportWorld is browser_context export: the world's storage state, read
// live when a browser runs, else what it keeps.
func exportWorld(ctx context.Context, d deps, tool, id, name string) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	st, err := exportStorage(ctx, d, id, name)
	if err != nil {
		if errors.Is(err, worlds.ErrUnknownWorld) {
			err = fmt.Errorf("%w; browser_context list shows the worlds open or kept", err)
		}
		return toolError(tool, err)
	}
	cookies, origins := st.Counts()
	return result(worldExportedAnswer{Instance: id, Name: name, StorageState: st},
		fmt.Sprintf("world %s of instance %s: a storage state of %d cookie(s) and the localStorage of %d origin(s), in storage_state "+
			"(Playwright's format: newContext({storageState}) and browser_context import take it)", name, id, cookies, origins))
}

// exportStorage is the storage state of a world of the instance id.
func exportStorage(ctx context.Context, d deps, id, name string) (storagestate.State, error) {
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return storagestate.State{}, err
	}
	return w.ExportWorld(ctx, name)
}
