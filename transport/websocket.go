// Package transport moves CDP messages: over websockets (gorilla) and the
// browser's debugging pipe, with a scanner that reads a message's head
// without decoding the rest, and the helpers of the /json HTTP surface.
package transport

import (
	"sync"
	"time"
)

// MaxMessageSize bounds one CDP message in either direction. Chromium's own
// pipe cap is 100 MB; screenshots and large evaluations stay well below.
const MaxMessageSize = 256 << 20

// HandshakeTimeout bounds a websocket handshake with the browser.
const HandshakeTimeout = 10 * time.Second

// FrameBufferSize is the websocket read/write buffer size on both ends.
const FrameBufferSize = 32 * 1024

const controlTimeout = time.Second

// copyBuffers are reused when a message is streamed on, so a steady relay
// allocates nothing per message.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32*1024); return &b }}
