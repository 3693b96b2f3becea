package profiles

import (
	"errors"
	"os"

	"github.com/rs/zerolog"
)

// Choose is where the named worlds' storage is kept: dir when the user
// gave one, else the profiles folder of the state dir they gave, else
// DefaultDir. It is checked when it exists: one another user owns, or
// others may write to, refuses the start. Without a dir of the user's
// choice, one that cannot be made keeps nothing ("": a read-only home, a
// container without one) and the log says so.
func Choose(dir, stateDir string, log zerolog.Logger) (string, error) {
	chosen := dir != ""
	if !chosen && stateDir != "" {
		dir, chosen = DirIn(stateDir), true
	}
	if !chosen {
		var err error
		if dir, err = DefaultDir(); err != nil {
			log.Warn().Err(err).Msg("no directory to keep the worlds' sign-ins in: every world forgets them when cdpvisor stops")
			return "", nil
		}
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return dir, nil // made with the first world kept: a state dir without one stays as it was
	}
	if err := Prepare(dir); err != nil {
		if chosen {
			return "", err
		}
		log.Warn().Err(err).Msg("the worlds' sign-ins cannot be kept: every world forgets them when cdpvisor stops")
		return "", nil
	}
	return dir, nil
}
