package schema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

func TestTheSchemaIsFoundInEveryPackVersionAndEncoding(t *testing.T) {
	for _, version := range []uint32{4, 5} {
		for name, encode := range encodings {
			pak, doc := testPak(t, version, encode)
			got, err := find(bytes.NewReader(pak), int64(len(pak)))
			if err != nil {
				t.Errorf("v%d %s: %v", version, name, err)
				continue
			}
			if !bytes.Equal(got, doc) {
				t.Errorf("v%d %s: %d bytes found, not the %d-byte schema", version, name, len(got), len(doc))
			}
		}
	}
}

func TestAnAliasIsItsEntrysBytes(t *testing.T) {
	pak, _ := testPak(t, 5, brotliResource)
	p, err := ReadPak(bytes.NewReader(pak), int64(len(pak)))
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 5 || p.Encoding != 1 || len(p.Resources) != 5 || len(p.Aliases) != 2 {
		t.Fatalf("read %+v", p)
	}
	entry, _ := p.Lookup(12)
	alias, ok := p.Lookup(20)
	if !ok || alias.ID != 20 || alias.Offset != entry.Offset || alias.Size != entry.Size {
		t.Errorf("alias 20 is %+v (found %v), want the bytes of entry 12 %+v", alias, ok, entry)
	}
	if small, _ := p.Lookup(21); string(pak[small.Offset:small.Offset+small.Size]) != "small" {
		t.Errorf("alias 21 is %+v", small)
	}
	if empty, ok := p.Lookup(14); !ok || empty.Size != 0 {
		t.Errorf("the empty resource is %+v (found %v)", empty, ok)
	}
	if _, ok := p.Lookup(99); ok {
		t.Error("id 99 found in a pack without it")
	}
}

func TestAPackWithoutTheSchemaSaysSo(t *testing.T) {
	pak := buildPak(5, []entry{{1, brotliResource(decoy(600 << 10))}, {2, []byte("{}")}}, nil)
	_, err := find(bytes.NewReader(pak), int64(len(pak)))
	if !errors.Is(err, ErrNoSchema) {
		t.Errorf("err %v, want ErrNoSchema", err)
	}
}

// Every truncation of a pack is refused by its index (the end marker lies
// beyond the file), never read past.
func TestATruncatedPackIsRefused(t *testing.T) {
	for _, version := range []uint32{4, 5} {
		pak, _ := testPak(t, version, brotliResource)
		for n := 0; n < len(pak); n += max(1, n/7) {
			_, err := find(bytes.NewReader(pak[:n]), int64(n))
			if !errors.Is(err, ErrMalformedPak) {
				t.Fatalf("v%d cut to %d of %d bytes: err %v, want ErrMalformedPak", version, n, len(pak), err)
			}
		}
	}
}

func TestAMalformedPackIsRefused(t *testing.T) {
	good := buildPak(5, []entry{{1, []byte("one")}, {2, []byte("two")}}, [][2]uint16{{3, 1}})
	le := binary.LittleEndian
	cases := map[string]func([]byte){
		"version 3":              func(p []byte) { le.PutUint32(p, 3) },
		"version 6":              func(p []byte) { le.PutUint32(p, 6) },
		"more entries than file": func(p []byte) { le.PutUint16(p[8:], 0xffff) },
		"more aliases than file": func(p []byte) { le.PutUint16(p[10:], 0xffff) },
		"an offset backwards":    func(p []byte) { le.PutUint32(p[headerV5+entrySize+2:], 0) },
		"an offset inside the index": func(p []byte) {
			le.PutUint32(p[headerV5+2:], headerV5)
		},
		"an end beyond the file": func(p []byte) { le.PutUint32(p[headerV5+2*entrySize+2:], 1<<30) },
		"an alias of no entry":   func(p []byte) { le.PutUint16(p[headerV5+3*entrySize+2:], 2) },
	}
	for name, spoil := range cases {
		p := bytes.Clone(good)
		spoil(p)
		if _, err := ReadPak(bytes.NewReader(p), int64(len(p))); !errors.Is(err, ErrMalformedPak) {
			t.Errorf("%s: err %v, want ErrMalformedPak", name, err)
		}
	}
	if _, err := ReadPak(bytes.NewReader(good), int64(len(good))); err != nil {
		t.Fatalf("the pack before spoiling: %v", err)
	}
	v4 := buildPak(4, []entry{{1, []byte("one")}}, nil)
	le.PutUint32(v4[4:], 0xffffffff) // a 32-bit count: refused before any allocation
	if _, err := ReadPak(bytes.NewReader(v4), int64(len(v4))); !errors.Is(err, ErrMalformedPak) {
		t.Errorf("v4 with 2^32-1 entries: err %v, want ErrMalformedPak", err)
	}
}

// A schema whose head reads but whose stream breaks off is an error, not
// a short document.
func TestABrokenSchemaResourceIsAnError(t *testing.T) {
	doc := fakeSchema(400 << 10)
	for name, encode := range map[string]func([]byte) []byte{"brotli": brotliResource, "gzip": gzipResource} {
		stored := encode(doc)
		pak := buildPak(5, []entry{{1, stored[:len(stored)*3/4]}}, nil)
		if name == "gzip" { // its trailer's size, which makes it a candidate, kept
			pak = buildPak(5, []entry{{1, append(stored[:len(stored)*3/4], stored[len(stored)-8:]...)}}, nil)
		}
		_, err := find(bytes.NewReader(pak), int64(len(pak)))
		if !errors.Is(err, ErrMalformedResource) {
			t.Errorf("%s cut short: err %v, want ErrMalformedResource", name, err)
		}
	}
	misdeclared := brotliResource(doc)
	misdeclared[2]++ // the header's size, one more than the stream holds
	pak := buildPak(5, []entry{{1, misdeclared}}, nil)
	if _, err := find(bytes.NewReader(pak), int64(len(pak))); !errors.Is(err, ErrMalformedResource) {
		t.Errorf("a size its stream does not have: err %v, want ErrMalformedResource", err)
	}
	notJSON := append(bytes.Clone(doc[:len(doc)-1]), ']')
	pak = buildPak(5, []entry{{1, brotliResource(notJSON)}}, nil)
	if _, err := find(bytes.NewReader(pak), int64(len(pak))); !errors.Is(err, ErrMalformedResource) {
		t.Errorf("not JSON: err %v, want ErrMalformedResource", err)
	}
}
