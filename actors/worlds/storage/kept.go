package storage

import (
	"context"
	"time"
)

// ProfilesWait bounds how long the actor waits on the profiles (a file
// read or write of a few kilobytes).
const ProfilesWait = 2 * time.Second

// LoadProfile gives a newly made kept world what its profile keeps (the
// actor asks it of every world whose name is kept). A profile that cannot
// be read (another user's, not a storage state) is left as it is: the
// world starts empty and is not kept.
func (r *Room) LoadProfile(s *Store) {
	if r.profiles == nil {
		return
	}
	name := s.of.Name()
	ctx, cancel := context.WithTimeout(context.Background(), ProfilesWait)
	defer cancel()
	st, found, err := r.profiles.Load(ctx, name)
	if err != nil {
		r.log.Error().Err(err).Str("world", name).Msg("the world's profile was not read: the world starts empty and is not kept until its file is fixed or removed (cdpvisor world close NAME --forget)")
		return
	}
	s.kept = true
	if found {
		s.state, s.saved, s.hasSaved = st, st, true // as saved
		cookies, origins := st.Counts()
		r.log.Info().Str("world", name).Int("cookies", cookies).Int("origins", origins).Msg("the world's profile was read")
	}
}

// saveWait bounds how long the actor waits on the profiles to take a
// world's storage.
const saveWait = time.Second

// keep hands a kept world's storage to the profiles when it changed.
func (r *Room) keep(s *Store) {
	if !s.kept || r.profiles == nil {
		return
	}
	if s.hasSaved && s.state.Equal(s.saved) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), saveWait)
	defer cancel()
	if err := r.profiles.Save(ctx, s.of.Name(), s.state); err != nil {
		r.log.Warn().Err(err).Str("world", s.of.Name()).Msg("the world's storage was not handed to the profiles; the next read tries again")
		return
	}
	s.saved, s.hasSaved = s.state, true
}
