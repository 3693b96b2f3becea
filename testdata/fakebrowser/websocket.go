package main

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/transport"
)

// maxMessage is how big a CDP message may be (Chromium's own cap is 100 MB).
const maxMessage = 200 << 20

var upgrader = websocket.Upgrader{
	CheckOrigin:       func(*http.Request) bool { return true }, // checked by originAllowed
	EnableCompression: true,                                     // Chromium accepts permessage-deflate
}

// serveWebSocket accepts /devtools/browser/<uuid> and /devtools/page/<id>.
func (b *browser) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	if !websocket.IsWebSocketUpgrade(r) {
		writeText(w, http.StatusOK, "text/plain", "") // what Chromium answers
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !b.originAllowed(origin) {
		writeText(w, http.StatusForbidden, "text/html", "Rejected an incoming WebSocket connection from the "+origin+
			" origin. Use the command line flag --remote-allow-origins="+origin+
			" to allow connections from this origin or --remote-allow-origins=* to allow all origins.")
		return
	}
	var page *target
	if id, ok := strings.CutPrefix(r.URL.Path, "/devtools/page/"); ok {
		b.mu.Lock()
		page = b.findTarget(id)
		b.mu.Unlock()
		if page == nil {
			writeText(w, http.StatusInternalServerError, "text/html", "")
			return
		}
	} else if r.URL.Path != "/devtools/browser/"+b.uuid {
		writeText(w, http.StatusNotFound, "text/html", "")
		return
	}
	ws, err := transport.Upgrade(&upgrader, w, r) // the keys Chromium takes (go-rod's "nil")
	if err != nil {
		return // the upgrader has answered
	}
	defer ws.Close()
	ws.SetReadLimit(maxMessage)

	var writeMu sync.Mutex // gorilla allows one writer at a time
	send := func(msg []byte) error {
		writeMu.Lock()
		defer writeMu.Unlock()
		ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
		return ws.WriteMessage(websocket.TextMessage, msg)
	}
	c := newConn(send, func() { ws.Close() }, page)
	b.addConn(c)
	defer b.removeConn(c)
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		b.handle(c, data)
	}
}

// originAllowed lets in the browser's own origin and --remote-allow-origins.
func (b *browser) originAllowed(origin string) bool {
	return origin == "http://"+b.addr ||
		slices.Contains(b.opts.allowOrigins, "*") ||
		slices.Contains(b.opts.allowOrigins, origin)
}
