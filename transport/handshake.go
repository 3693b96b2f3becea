package transport

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/gorilla/websocket"
)

// A websocket upgrade is taken as Chromium's DevTools server takes it
// (measured on Chromium 156, notes/chromium.md): any Sec-WebSocket-Key that
// is not empty (go-rod sends the literal "nil"), answered with the RFC 6455
// Sec-WebSocket-Accept of that key; Sec-WebSocket-Version 13 or 8. gorilla's
// Upgrader insists on a base64 key of 16 bytes and version 13: it is given
// a stand-in of those, and the Accept it writes for the stand-in becomes
// the one of the key the client sent.

// acceptGUID is RFC 6455's magic string (section 1.3).
const acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// standInKey is RFC 6455's sample key: what gorilla is given in place of a
// key it would refuse.
const standInKey = "dGhlIHNhbXBsZSBub25jZQ=="

// ErrHandshake is an upgrade Chromium refuses too.
var ErrHandshake = errors.New("not a websocket handshake Chromium takes")

// AcceptKey is the Sec-WebSocket-Accept answering key: base64 of the SHA-1
// of key and the RFC's GUID, whatever the key is.
func AcceptKey(key string) string {
	sum := sha1.Sum([]byte(key + acceptGUID))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// ChallengeKey is an upgrade's Sec-WebSocket-Key as Chromium reads it (the
// values of repeated headers joined by commas); an error when Chromium
// refuses the upgrade for its key or version.
func ChallengeKey(h http.Header) (string, error) {
	key := strings.TrimSpace(strings.Join(h.Values("Sec-Websocket-Key"), ","))
	if key == "" {
		return "", fmt.Errorf("%w: Sec-WebSocket-Key is missing or empty", ErrHandshake)
	}
	if v := strings.Join(h.Values("Sec-Websocket-Version"), ","); v != "13" && v != "8" {
		return "", fmt.Errorf("%w: Sec-WebSocket-Version %q is not 13 (nor 8)", ErrHandshake, v)
	}
	return key, nil
}

// Upgrade answers a websocket upgrade with u's settings, taking the keys
// and versions Chromium takes. A refused upgrade is answered 400 (or as
// u answers what it refuses itself).
func Upgrade(u *websocket.Upgrader, w http.ResponseWriter, r *http.Request) (*websocket.Conn, error) {
	key, err := ChallengeKey(r.Header)
	if err != nil {
		http.Error(w, "websocket: "+err.Error(), http.StatusBadRequest)
		return nil, err
	}
	if gorillaTakes(key) && r.Header.Get("Sec-Websocket-Version") == "13" {
		return u.Upgrade(w, r, nil)
	}
	stood := r.Clone(r.Context())
	stood.Header.Set("Sec-Websocket-Key", standInKey)
	stood.Header.Set("Sec-Websocket-Version", "13")
	return u.Upgrade(&keyedWriter{ResponseWriter: w, from: []byte(AcceptKey(standInKey)), to: []byte(AcceptKey(key))}, stood, nil)
}

// gorillaTakes says whether gorilla's Upgrader takes key as it is: base64
// of 16 bytes.
func gorillaTakes(key string) bool {
	b, err := base64.StdEncoding.DecodeString(key)
	return err == nil && len(b) == 16
}

// keyedWriter hands the upgrader a connection whose handshake answer
// carries the Accept of the client's own key.
type keyedWriter struct {
	http.ResponseWriter
	from, to []byte
}

func (k *keyedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := k.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("websocket: the response cannot be hijacked")
	}
	c, brw, err := h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	return &acceptFixed{Conn: c, from: k.from, to: k.to}, brw, nil
}

// acceptFixed is a client connection whose first write, the upgrader's
// handshake answer, has the stand-in's Accept replaced; later writes pass
// untouched. The upgrader writes that answer before it returns the
// connection to anyone, so fixed needs no lock.
type acceptFixed struct {
	net.Conn
	from, to []byte
	fixed    bool
}

func (a *acceptFixed) Write(p []byte) (int, error) {
	if a.fixed {
		return a.Conn.Write(p)
	}
	a.fixed = true
	// Both values are 28 bytes of base64: the answer keeps its length.
	return a.Conn.Write(bytes.Replace(p, a.from, a.to, 1))
}

// Unwrap is the connection itself (its TCP options).
func (a *acceptFixed) Unwrap() net.Conn { return a.Conn }
