// Package storage is the worlds' storage room: each world's cookies and
// each origin's localStorage, read from its context as they change,
// restored into every context it gets (a new browser, a new coordinator),
// seeded, and for a kept world handed to the profiles.
//
// It is the WorldsActor's, not an actor of its own: the actor owns its
// state (each world's Store in the book, the Room of one Serve) and calls
// it on its goroutine alone, through the entry points of Room; the room
// reaches the browser and the book only through the Host the actor gives
// it. It imports nothing of actors/worlds (actors/house_test.go holds
// that): the actor calls it, never the other way round.
package storage

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// Host is what the room asks of the WorldsActor. Every call is made, and
// every then run, on the actor's goroutine.
type Host interface {
	// Call sends a command to the running browser on the actor's own
	// connection, on a page session of the room's (session) or the
	// browser's (""); then runs with its result, or why there is none.
	Call(session, method string, params any, then func(result json.RawMessage, err error))
	// Targets lists the running browser's targets.
	Targets(then func([]Target, error))
	// Context is w's own context in the running browser; "": it has none
	// there (not made yet, its browser gone, the world closed).
	Context(w World) string
	// Attached says the room has a session on a page of w: what the actor
	// sets up there (a guarded world's refusal of local files) goes right
	// after the room's DOMStorage.enable, before anything else.
	Attached(w World, session string)
}

// World is a world as its storage knows it: the actor's entry of it in
// its book, handed back to the Host as it was given.
type World interface {
	Name() string
}

// Profiles is what the room asks of the room that keeps the kept worlds'
// storage on disk (the ProfilesActor); nil keeps nothing.
type Profiles interface {
	Load(ctx context.Context, name string) (storagestate.State, bool, error)
	Save(ctx context.Context, name string, st storagestate.State) error
}

// Target is a target of the running browser, as the room reads it.
type Target struct {
	ID      string `json:"targetId"`
	Type    string `json:"type"`
	URL     string `json:"url"`
	Context string `json:"browserContextId"`
}

// Errors the room answers.
var (
	// ErrBadSeed: a seed that cannot be given.
	ErrBadSeed = errors.New("cannot seed the world")
	// ErrBrowserGone: the browser a request was about is gone (with the
	// world's context there, or the room's sessions on it); the
	// WorldsActor's own (worlds.ErrBrowserGone is this one).
	ErrBrowserGone = errors.New("that browser is gone")
)

// Room is the storage's part of one Serve of the actor: its sessions on
// the worlds' pages, gone with the actor's connection, and what it asks
// of the actor. The worlds' Stores outlive it, in the actor's book.
type Room struct {
	host     Host
	profiles Profiles
	log      zerolog.Logger
	pages    map[string]*pageSession // by target id
}

// New is the room of one Serve of the actor.
func New(host Host, profiles Profiles, log zerolog.Logger) *Room {
	return &Room{host: host, profiles: profiles, log: log, pages: map[string]*pageSession{}}
}

// Disconnected says the actor's connection to the browser ended: the
// room's page sessions went with it.
func (r *Room) Disconnected() { r.pages = map[string]*pageSession{} }
