package relay

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// ExtensionBook hears which extensions a client loaded into the browser
// through the relay, and uninstalled (the instance's ExtensionsActor): the
// endpoint accepts the websockets of exactly those extensions.
type ExtensionBook interface {
	Loaded(ctx context.Context, id string, gen int) error
	Uninstalled(ctx context.Context, id string) error
}

// isExtensionRequest: the requests of the Extensions domain the relay
// reads, with their answers; on any session (a browser target's, or the
// root), since Chromium takes them on a browser target's.
func isExtensionRequest(h *transport.Head) bool {
	return h.HasID && (h.Is("Extensions.loadUnpacked") || h.Is("Extensions.uninstall"))
}

// extensionNews is what an answer to an extension request says happened:
// the extension id was loaded, or uninstalled.
type extensionNews struct {
	id     string
	loaded bool
}

// extensionRequests are the client's extension requests awaiting their
// answers, by session and id (ids need not be unique across sessions).
type extensionRequests map[requestKey]extensionRequest

type requestKey struct {
	session string
	id      int64
}

// extensionRequest is a loadUnpacked (whose answer names the extension) or
// the uninstall of extension id.
type extensionRequest struct {
	load bool
	id   string
}

// sent notes an extension request; its answer is read before the client
// gets it, so the book knows an extension before the client can start it.
func (r extensionRequests) sent(h *transport.Head, msg []byte) watching {
	req := extensionRequest{load: h.Is("Extensions.loadUnpacked")}
	if !req.load {
		var p struct {
			Params struct {
				ID string `json:"id"`
			} `json:"params"`
		}
		if json.Unmarshal(msg, &p) != nil || p.Params.ID == "" {
			return unwatched // the browser answers it with the error
		}
		req.id = p.Params.ID
	}
	r[requestKey{string(h.SessionID), h.ID}] = req
	return watchBefore
}

// answered reads the answer to an extension request: what it did, if it
// worked.
func (r extensionRequests) answered(h *transport.Head, msg []byte) (extensionNews, bool) {
	key := requestKey{string(h.SessionID), h.ID}
	req, ok := r[key]
	if !ok {
		return extensionNews{}, false
	}
	delete(r, key)
	if h.HasError {
		return extensionNews{}, false
	}
	if !req.load {
		return extensionNews{id: req.id}, true
	}
	var a struct {
		Result struct {
			ID string `json:"id"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &a) != nil || a.Result.ID == "" {
		return extensionNews{}, false
	}
	return extensionNews{id: a.Result.ID, loaded: true}, true
}

// tellTimeout bounds how long the relay waits to tell the book: it is
// quick, or cdpvisor is stopping.
const tellTimeout = 5 * time.Second

// tellExtension tells the instance's book what a client's extension
// request did, before the client hears the answer: the extension may open
// its websocket at once. A loaded extension is the browser's of the
// relay's link, whose generation the book forgets it with.
func (run *relayRun) tellExtension(n extensionNews) {
	book := run.r.spec.Extensions
	if book == nil || run.link == nil {
		return
	}
	ctx, cancel := context.WithTimeout(run.ctx, tellTimeout)
	defer cancel()
	var err error
	if n.loaded {
		err = book.Loaded(ctx, n.id, run.link.ep.Generation)
	} else {
		err = book.Uninstalled(ctx, n.id)
	}
	if err != nil {
		run.log.Warn().Err(err).Str("extension", n.id).Bool("loaded", n.loaded).Msg("the book of extensions was not told")
	}
}
