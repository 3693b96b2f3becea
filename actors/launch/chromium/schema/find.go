package schema

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
)

// ErrNoSchema is a pack, or an executable's packs, holding no protocol
// schema.
var ErrNoSchema = errors.New("no protocol schema")

// Sizes that make a resource a candidate: Chromium 156's schema is 1.6 MB
// (measured); the protocol has not been under 256 KiB since it was
// published. A bound above keeps a corrupt header from costing memory.
// A resource stored in fewer bytes than minStoredSize is not looked at:
// the schema compresses about 13 times with brotli (measured: 1598257 bytes
// in 122050), no codec grit uses gets 32.
const (
	minSchemaSize = 256 << 10
	maxSchemaSize = 64 << 20
	minStoredSize = minSchemaSize / 32
)

// schemaHead is how the schema begins, whatever its indentation: Chromium
// 156's starts `{\n    "version": {\n        "major": "1",\n        "minor": "3"\n    },\n    "domains": [`.
var schemaHead = regexp.MustCompile(`^\s*\{\s*"version"\s*:\s*\{\s*"major"\s*:\s*"\d+"\s*,\s*"minor"\s*:\s*"\d+"\s*\}\s*,\s*"domains"\s*:\s*\[`)

// headSize is how much of a candidate is decompressed to check its head.
const headSize = 256

// FindInPak returns the protocol schema a pack file holds, decompressed.
// It finds it by content, never by id (ids change with every build): of
// the resources large enough, the first whose head is the schema's is
// decompressed whole. They are tried in the order of how well they
// compressed: JSON as repetitive as the schema comes before the scripts,
// images and sounds around it (in Chromium 156 the schema is the third
// of 31 candidates). Aliases share an entry's bytes, so only entries are
// looked at.
func FindInPak(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	doc, err := find(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// find is FindInPak on the pack r of size bytes.
func find(r io.ReaderAt, size int64) ([]byte, error) {
	pak, err := ReadPak(r, size)
	if err != nil {
		return nil, err
	}
	var candidates []stored
	for _, res := range pak.Resources {
		if res.Size < minStoredSize {
			continue
		}
		s, err := openResource(r, res)
		if err != nil {
			return nil, fmt.Errorf("resource %d: %w", res.ID, err)
		}
		if s.declared >= minSchemaSize && s.declared <= maxSchemaSize {
			candidates = append(candidates, s)
		}
	}
	slices.SortStableFunc(candidates, func(a, b stored) int {
		return cmp.Compare(b.declared*a.bytes.Size(), a.declared*b.bytes.Size()) // b's ratio against a's
	})
	var d decoders
	for _, s := range candidates {
		head, err := d.prefix(s, headSize)
		if err != nil || !schemaHead.Match(head) {
			continue // another resource, or one this reader cannot open: not the schema
		}
		doc, err := d.all(s, maxSchemaSize)
		if err != nil {
			return nil, fmt.Errorf("the protocol schema: %w", err)
		}
		if !json.Valid(doc) {
			return nil, fmt.Errorf("the protocol schema: %w: not JSON", ErrMalformedResource)
		}
		return doc, nil
	}
	return nil, fmt.Errorf("%w among %d resources (%d large enough)", ErrNoSchema, len(pak.Resources), len(candidates))
}
