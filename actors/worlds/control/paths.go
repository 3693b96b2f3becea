package control

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's own paths under /context/NAME, besides its CDP endpoint: its
// storage state and its journal. Only in the path form: a world's own
// port is its CDP endpoint, no more.

// isWorldOwnPath says path is one of them.
func isWorldOwnPath(path string) bool {
	rest, ok := strings.CutPrefix(path, proxy.ScopePrefix)
	if !ok {
		return false
	}
	_, sub, _ := strings.Cut(rest, "/")
	sub = "/" + strings.TrimPrefix(sub, "/")
	return sub == worldapi.StorageStatePath || sub == worldapi.JournalPath
}

// serveWorldOwnPath answers /context/NAME/storage-state and
// /context/NAME/journal.
func (c *Control) serveWorldOwnPath(w http.ResponseWriter, r *http.Request) {
	// The name as sent: an escaped '/' or anything else escaped in it is
	// refused, not read as a path.
	name, _, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), proxy.ScopePrefix), "/")
	if err := worlds.CheckName(name); err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: %v (in %s)", err, r.URL.EscapedPath()), http.StatusBadRequest)
		return
	}
	switch "/" + strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, proxy.ScopePrefix+name), "/") {
	case worldapi.StorageStatePath:
		c.serveStorageState(w, r, name)
	case worldapi.JournalPath:
		c.serveJournal(w, r, name)
	default:
		http.NotFound(w, r) // isWorldOwnPath matched the path as decoded; the name as sent says otherwise
	}
}
