package storage

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// fakeHost is the actor as the room sees it, without a browser: each
// world's context is what the test says, and each command is answered
// by answer (nil: an empty result) at once.
type fakeHost struct {
	contexts map[string]string // world name → its context
	sent     []string          // the methods called, in order
	answer   func(method string) (json.RawMessage, error)
}

type fakeWorld string

func (w fakeWorld) Name() string { return string(w) }

func (h *fakeHost) Call(_ string, method string, _ any, then func(json.RawMessage, error)) {
	h.sent = append(h.sent, method)
	if h.answer == nil {
		then(json.RawMessage(`{}`), nil)
		return
	}
	then(h.answer(method))
}

func (h *fakeHost) Targets(then func([]Target, error)) { then(nil, nil) }
func (h *fakeHost) Context(w World) string             { return h.contexts[w.Name()] }
func (h *fakeHost) Attached(World, string)             {}

// A world without a context in the running browser is read at once: its
// readers go on, and nothing is sent.
func TestAWorldWithoutAContextIsReadAtOnce(t *testing.T) {
	h := &fakeHost{}
	r := New(h, nil, zerolog.Nop())
	read := false
	r.Read(NewStore(fakeWorld("shop")), func() { read = true })
	if !read || len(h.sent) != 0 {
		t.Errorf("read %v, sent %v: want read at once, nothing sent", read, h.sent)
	}
}

// A world whose context goes while a seed's cookies are set is given
// nothing more (ErrBrowserGone); a browser
// that refuses the cookies refuses the seed (ErrBadSeed).
func TestASeedStopsWhereItsContextGoes(t *testing.T) {
	seed := storagestate.State{Cookies: []storagestate.Cookie{{Name: "sid", Value: "1", Domain: "shop.test", Path: "/"}}}
	for name, c := range map[string]struct {
		answer func(h *fakeHost) (json.RawMessage, error)
		want   error
	}{
		"context gone": {func(h *fakeHost) (json.RawMessage, error) { h.contexts["shop"] = ""; return json.RawMessage(`{}`), nil }, ErrBrowserGone},
		"refused":      {func(*fakeHost) (json.RawMessage, error) { return nil, errors.New("the browser answered -32000: no") }, ErrBadSeed},
	} {
		t.Run(name, func(t *testing.T) {
			h := &fakeHost{contexts: map[string]string{"shop": "CTX"}}
			h.answer = func(string) (json.RawMessage, error) { return c.answer(h) }
			r := New(h, nil, zerolog.Nop())
			s := NewStore(fakeWorld("shop"))
			var got error
			r.Give(s, seed, func(err error) { got = err })
			if !errors.Is(got, c.want) || len(s.State().Cookies) != 0 {
				t.Errorf("answered %v with cookies %v; want %v and none kept", got, s.State().Cookies, c.want)
			}
		})
	}
}
