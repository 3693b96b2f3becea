package actors

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// chooseProfilesDir is where the named worlds' storage is kept (see
// CoordinatorConfig.ProfilesDir), checked when it exists: one another user
// owns, or others may write to, refuses the start. Without a dir of the user's
// choice, one that cannot be made keeps nothing (a read-only home, a
// container without one) and the log says so.
func chooseProfilesDir(cfg CoordinatorConfig) (string, error) {
	dir, chosen := cfg.ProfilesDir, cfg.ProfilesDir != ""
	if !chosen && cfg.StateDir != "" {
		dir, chosen = profiles.DirIn(cfg.StateDir), true
	}
	if !chosen {
		var err error
		if dir, err = profiles.DefaultDir(); err != nil {
			cfg.Log.Warn().Err(err).Msg("no directory to keep the worlds' sign-ins in: every world forgets them when cdpvisor stops")
			return "", nil
		}
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return dir, nil // made with the first world kept: a state dir without one stays as it was
	}
	if err := profiles.Prepare(dir); err != nil {
		if chosen {
			return "", err
		}
		cfg.Log.Warn().Err(err).Msg("the worlds' sign-ins cannot be kept: every world forgets them when cdpvisor stops")
		return "", nil
	}
	return dir, nil
}

// keptWorlds is the profiles as the WorldsActors see them; nil keeps
// nothing.
func (c *Coordinator) keptWorlds() worlds.Profiles {
	if c.profiles == nil {
		return nil
	}
	return c.profiles
}

// keepWait bounds the last save of the worlds when cdpvisor stops: a
// browser that does not answer must not hold the stop.
const keepWait = 3 * time.Second

// keepWorlds reads every instance's kept worlds a last time and writes
// them, before the browsers stop (SIGTERM, stdin's end, Ctrl-C).
func (c *Coordinator) keepWorlds() {
	if c.profiles == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), keepWait)
	defer cancel()
	for _, inst := range c.registry.All(ctx) {
		if inst.Worlds == nil {
			continue
		}
		if err := inst.Worlds.Keep(ctx); err != nil {
			c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("the worlds were not read a last time before the stop; what they last saved is kept")
		}
	}
	if err := c.profiles.Flush(ctx); err != nil {
		c.cfg.Log.Warn().Err(err).Msg("the worlds' last storage was not written")
	}
}
