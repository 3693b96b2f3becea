package actors

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// worldOfContext tells the DownloadsActor which world a browser context is
// the own context of, from the WorldsActor's book; nil for an instance
// without worlds. Contexts a world's clients made inside it are not in the
// book's summaries: their downloads land in the instance's folder.
func worldOfContext(wl *worlds.Actor) downloads.WorldOf {
	if wl == nil {
		return nil
	}
	return func(ctx context.Context, contextID string) (string, error) {
		list, err := wl.List(ctx)
		if err != nil {
			return "", err
		}
		for _, w := range list {
			if w.Context == contextID {
				return w.Name, nil
			}
		}
		return "", nil
	}
}
