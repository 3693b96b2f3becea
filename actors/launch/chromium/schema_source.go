package chromium

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium/schema"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/multiplex"
)

// executableSchema is /json/protocol's source for a browser that serves
// none itself (on its pipe): the schema in its executable's resources.
// The executable is its process's real file (once the browser answers on
// its pipe it has exec'd: Debian's /usr/bin/chromium is a script that
// execs /usr/lib/chromium/chromium under the same pid; before, the pid is
// the shell's), else the path it was started by. resolve reads it, to be
// called once the browser answered: remembered, it still names the
// executable for a request that comes as the browser dies.
func executableSchema(f launch.Facts) (source multiplex.Schema, resolve func()) {
	e := &executable{f: f}
	return func(_ context.Context, v multiplex.Version) ([]byte, error) {
		return schema.Of(e.path(), versionNumber(v.Product))
	}, func() { e.path() }
}

// executable is a browser's executable file, read from its process once.
type executable struct {
	f        launch.Facts
	mu       sync.Mutex // requests for /json/protocol come on any goroutine
	resolved string
}

func (e *executable) path() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.resolved == "" && e.f.Pid > 0 {
		if info, err := proc.ProcessInfo(e.f.Pid); err == nil && info.Exe != "" {
			e.resolved = info.Exe
		}
	}
	return cmp.Or(e.resolved, e.f.Browser.Path)
}

// versionNumber is the number of a Browser.getVersion product
// ("Chrome/156.0.8078.79", "HeadlessChrome/…"): how an install names its
// versioned directories.
func versionNumber(product string) string {
	_, v, _ := strings.Cut(product, "/")
	return v
}

// portSchemaLimit bounds the schema a browser's port answers (1.6 MB in
// Chromium 156).
const portSchemaLimit = 64 << 20

// portSchema is /json/protocol's source for a browser on a debugging port
// reached through one websocket (the user's browser): the browser's own
// answer, else (Chrome's consent mode serves no /json) otherwise's.
func portSchema(port int, otherwise multiplex.Schema) multiplex.Schema {
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/json/protocol"
	return func(ctx context.Context, v multiplex.Version) ([]byte, error) {
		doc, err := getSchema(ctx, url)
		if err == nil {
			return doc, nil
		}
		doc, err2 := otherwise(ctx, v)
		if err2 != nil {
			return nil, fmt.Errorf("%w; %s: %w", err2, url, err)
		}
		return doc, nil
	}
}

func getSchema(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Close = true // the one websocket stays cdpvisor's only connection to the user's browser
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	doc, err := io.ReadAll(io.LimitReader(resp.Body, portSchemaLimit+1))
	if err == nil && len(doc) > portSchemaLimit {
		err = fmt.Errorf("larger than %d bytes", portSchemaLimit)
	}
	return doc, err
}
