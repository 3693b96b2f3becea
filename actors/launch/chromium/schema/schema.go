// Package schema finds a Chromium build's DevTools protocol schema, the
// document its debugging port serves at /json/protocol, in the resource
// packs beside its executable: a browser on its debugging pipe has no
// HTTP server to ask, and the schema is the same bytes either way
// (Chromium serves that resource, decompressed).
package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// cache keeps the schema of each executable cdpvisor ran, decompressed,
// while the executable is the same file (path, size and time): one copy
// per executable, each request after the first answered from memory. What
// was not found is kept too, so a browser without a schema costs a stat.
var cache = struct {
	sync.Mutex
	byExe map[string]found
}{byExe: map[string]found{}}

type found struct {
	version string
	size    int64
	mtime   time.Time
	doc     []byte
	err     error
}

// Of returns the protocol schema of the browser executable exe (the
// process's real file, e.g. /proc/PID/exe's target, or the path it was
// started by); version is the version the browser reports (e.g.
// "156.0.8078.79", or ""), which picks among versioned directories. The
// document is shared: callers must not change it. Without one, the error
// wraps ErrNoSchema.
func Of(exe, version string) ([]byte, error) {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	info, err := os.Stat(exe)
	if err != nil {
		return nil, fmt.Errorf("%w: the executable: %w", ErrNoSchema, err)
	}
	cache.Lock()
	defer cache.Unlock() // a first load holds the others back: they would do the same work
	if f, ok := cache.byExe[exe]; ok && f.version == version && f.size == info.Size() && f.mtime.Equal(info.ModTime()) {
		return f.doc, f.err
	}
	f := found{version: version, size: info.Size(), mtime: info.ModTime()}
	f.doc, f.err = load(exe, version)
	cache.byExe[exe] = f // replacing what an older file of that path had
	return f.doc, f.err
}

// load looks in each pack that may hold exe's schema, in order.
func load(exe, version string) ([]byte, error) {
	paks := paksOf(exe, runtime.GOOS, version)
	if len(paks) == 0 {
		return nil, fmt.Errorf("%w: no resource pack (resources.pak) beside %s", ErrNoSchema, exe)
	}
	var errs []error
	for _, pak := range paks {
		doc, err := FindInPak(pak)
		if err == nil {
			return doc, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("%w for %s: %w", ErrNoSchema, exe, several(errs))
}

// several is the errors of each pack looked in, said on one line.
type several []error

func (s several) Error() string {
	msg := ""
	for i, e := range s {
		if i > 0 {
			msg += "; "
		}
		msg += e.Error()
	}
	return msg
}

func (s several) Unwrap() []error { return s }
