package worldapi

import "context"

// Hooks are a feature's part in an instance's world requests (the
// recorder's switch, say): the worlds' surface calls them, for the HTTP
// requests and the coordinator's callers alike, and names no feature.
// A nil func: no part in that.
type Hooks struct {
	// Opened hears a world made or found by a request, with what the
	// request asked (its options); an error is the request's.
	Opened func(ctx context.Context, name string, req OpenRequest) error
	// Ended hears a world closed by a request; forgotten: what it keeps was
	// deleted too (close --forget).
	Ended func(ctx context.Context, name string, forgotten bool)
	// Describe fills in the feature's part of a world's status.
	Describe func(name string, s *Status)
}
