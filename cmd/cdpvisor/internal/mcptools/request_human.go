package mcptools

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/liveview"
)

// requestHumanArgs are request_human's arguments.
type requestHumanArgs struct {
	Reason   *string  `json:"reason"`
	Context  *string  `json:"context"`
	TimeoutS *float64 `json:"timeout_s"`
}

// humanProgressEvery is how often a waiting request_human says it still
// waits (MCP progress notifications).
const humanProgressEvery = 5 * time.Second

// requestHuman is request_human: ask a human, through the live view, to do
// what the agent cannot (a login, a 2FA code, a CAPTCHA), and wait for
// them.
func requestHuman(d deps) server.ServerTool {
	maxWait := int(liveview.MaxHumanWait / time.Second)
	def := toolDef{
		name: "request_human", title: "Ask a human",
		description: "Ask a human to step in on a page: a login, a 2FA code, a CAPTCHA, a consent page. The live view (" +
			"coordinator_status live_view, /ui) marks the world with the reason; the human takes it over (your input and " +
			"navigation in that world wait meanwhile), does it, and presses Done. Answers the human's note and the page's URL and " +
			"title then; after timeout_s with no answer it fails, and the page is as it was.",
		params: []param{
			{name: "reason", want: "a string: what the human should do", schema: map[string]any{"type": "string", "minLength": 1,
				"description": "What the human should do, shown prominently: e.g. \"Log in to example.com (2FA)\"."}},
			{name: "context", want: nameWant, schema: map[string]any{"type": "string",
				"description": "The world (as in /context/NAME) whose page needs the human. Leave out for the most recently active world (the human may choose another)."}},
			{name: "timeout_s", want: fmt.Sprintf("a number of seconds, more than 0 and at most %d", maxWait), schema: map[string]any{
				"type": "number", "exclusiveMinimum": 0, "maximum": maxWait,
				"description": fmt.Sprintf("How long to wait for a human, in seconds: more than 0, at most %d. Default %d.", maxWait, int(liveview.DefaultHumanWait/time.Second))}},
		},
		required: []string{"reason"},
	}
	return serverTool(def, func(ctx context.Context, req mcp.CallToolRequest, args requestHumanArgs) (*mcp.CallToolResult, error) {
		reason, world := "", ""
		if args.Reason != nil {
			reason = *args.Reason
		}
		if args.Context != nil {
			world = *args.Context
		}
		hr, wait, err := liveview.CheckHumanRequest(reason, world, args.TimeoutS)
		if err != nil {
			return toolErrorf(def.name, "%v", err)
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		type outcome struct {
			ans liveview.HumanAnswer
			err error
		}
		done := make(chan outcome, 1)
		go func() { // ends with wctx at the latest
			ans, err := d.c.RequestHuman(wctx, hr.World, hr.Reason)
			done <- outcome{ans, err}
		}()
		progress := progressOf(ctx, req)
		tick := time.NewTicker(humanProgressEvery)
		defer tick.Stop()
		asked := time.Now()
		for {
			select {
			case o := <-done:
				if o.err != nil {
					if ctx.Err() == nil && wctx.Err() != nil {
						return toolErrorf(def.name, "%s", liveview.NoHumanWords(wait))
					}
					return toolError(def.name, o.err)
				}
				return result(o.ans, humanText(o.ans))
			case <-tick.C:
				if progress != nil {
					progress(fmt.Sprintf("waiting for a human (%s so far): %s; open %s", time.Since(asked).Round(time.Second), hr.Reason, d.c.LiveView()))
				}
			}
		}
	})
}

func humanText(a liveview.HumanAnswer) string {
	note := a.Note
	if note == "" {
		note = "(no note)"
	}
	return fmt.Sprintf("A human pressed Done. Their note: %s\nThe page now: %s (%s)", note, a.URL, a.Title)
}
