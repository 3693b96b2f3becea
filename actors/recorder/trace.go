package recorder

import (
	"context"
	"io"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Trace writes the recording of the world called world of the instance
// to out: a Playwright trace, or a video (q.Format).
func (a *Actor) Trace(ctx context.Context, instance, world string, q worldapi.TraceQuery, out io.Writer) error {
	return ErrOff
}
