package worldcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// followWait is how long one read of a follower waits for news.
const followWait = 30 * time.Second

// readJournal is `world journal NAME [--since S] [--follow]`: the world's
// journal as JSON lines on stdout; with --follow, then each new entry as
// it comes, until interrupted (ctx).
func readJournal(ctx context.Context, t state.Target, o Options, stdout io.Writer) error {
	since, wait := o.Since, time.Duration(0)
	for {
		lines, err := worldapi.ReadJournal(ctx, t.Endpoint, o.Name, since, wait)
		if err != nil {
			if o.Follow && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil // interrupted: the way a follower ends
			}
			return asked(t, err)
		}
		if _, err := stdout.Write(lines); err != nil {
			return err
		}
		if !o.Follow {
			return nil
		}
		// What there was is printed: from now on each read waits for news.
		wait = followWait
		if last := lastSeq(lines); last != "" {
			since = last
		}
	}
}

// lastSeq is the seq of the last of lines, as a since ("" when none).
func lastSeq(lines []byte) string {
	lines = bytes.TrimRight(lines, "\n")
	if i := bytes.LastIndexByte(lines, '\n'); i >= 0 {
		lines = lines[i+1:]
	}
	var e struct {
		Seq uint64 `json:"seq"`
	}
	if len(lines) == 0 || json.Unmarshal(lines, &e) != nil {
		return ""
	}
	return strconv.FormatUint(e.Seq, 10)
}
