// Package worldapi is what a world looks like from outside the worlds
// room, and how another process asks for one: the types of a coordinator's
// world requests (Status, Seed, Policy), their paths, and the client the
// command line and the MCP edge use (Open, List, Close, Forget, Export,
// ReadJournal). It knows no actor: the worlds actor, the proxy and the
// edges all speak it.
package worldapi

import "time"

// Status is one world of an instance: a browser context of its own on
// the instance's browser, at Endpoint (its own port,
// http://127.0.0.1:WPORT) and at PathEndpoint
// (http://127.0.0.1:PORT/context/NAME). It is also the answer of the
// coordinator's world requests (Path).
type Status struct {
	Name string `json:"name"`
	// Endpoint is the world's port form; the path form where worlds have
	// no ports (an endpoint beyond loopback, serve --listen).
	Endpoint     string `json:"endpoint"`
	PathEndpoint string `json:"path_endpoint"`
	Port         int    `json:"port,omitempty"`    // the world's own port; 0: none
	WS           string `json:"ws,omitempty"`      // its browser websocket, on Endpoint
	Clients      int    `json:"clients"`           // its client connections
	Pages        int    `json:"pages"`             // its pages in the running browser
	Created      bool   `json:"created,omitempty"` // made by the request that answers it
	// Open: the world is open; a kept world that is not is listed for its
	// profile alone (no port, no clients), and made again on its first use.
	Open bool `json:"open"`
	// Kept: its cookies and localStorage are kept on disk (every named
	// world but a fresh agent-… one); SavedBytes and SavedAt say its
	// profile's size and last save, once it was saved.
	Kept       bool       `json:"kept"`
	SavedBytes int64      `json:"saved_bytes,omitempty"`
	SavedAt    *time.Time `json:"saved_at,omitempty"`
	// Seeded is what the request's seed gave the world (Seed).
	Seeded *Seeded `json:"seeded,omitempty"`
	// Policy is the world's network policy and upstream proxy; nil: neither.
	Policy *Policy `json:"policy,omitempty"`
	// Recorded: the world's pages and its clients' commands are recorded
	// (GET Path/NAME/trace writes them as a Playwright trace).
	Recorded bool `json:"recorded,omitempty"`
}

// Path is where a coordinator's endpoint makes, lists and closes its
// worlds for other processes of its owner (wrap --isolate, cdpvisor
// world): GET Path lists them, PUT Path/NAME makes or finds
// one (seeded by its body, a Seed), GET shows one, DELETE closes one
// (?forget=1: and deletes its profile); each answers Status JSON.
const Path = "/cdpvisor/worlds"
