package schema

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// entry is one resource of a pack a test builds.
type entry struct {
	id   uint16
	data []byte
}

// buildPak writes a grit pack of version 4 or 5 as data_pack.py does:
// the header, the entries and their end marker, the aliases (v5), the
// resources' bytes.
func buildPak(version uint32, entries []entry, aliases [][2]uint16) []byte {
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	header := int64(headerV5)
	switch version {
	case 4:
		header = headerV4
		le(uint32(4))
		le(uint32(len(entries)))
		b.WriteByte(1)
	case 5:
		le(uint32(5))
		b.Write([]byte{1, 0, 0, 0})
		le(uint16(len(entries)))
		le(uint16(len(aliases)))
	}
	off := header + int64(len(entries)+1)*entrySize + int64(len(aliases))*aliasSize
	for _, e := range entries {
		le(e.id)
		le(uint32(off))
		off += int64(len(e.data))
	}
	le(uint16(0))
	le(uint32(off))
	for _, a := range aliases {
		le(a[0])
		le(a[1])
	}
	for _, e := range entries {
		b.Write(e.data)
	}
	return b.Bytes()
}

// brotliResource stores data as grit does: its header, then brotli.
func brotliResource(data []byte) []byte {
	var b bytes.Buffer
	b.Write(brotliMagic)
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(len(data)))
	b.Write(size[:6])
	w := brotli.NewWriterLevel(&b, 5)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

func gzipResource(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

// encodings stores a resource each way grit does.
var encodings = map[string]func([]byte) []byte{
	"brotli": brotliResource,
	"gzip":   gzipResource,
	"raw":    func(d []byte) []byte { return d },
}

// fakeSchema is a protocol schema as Chromium writes it, of about size
// bytes, with words random enough not to compress 32 times.
func fakeSchema(size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("{\n    \"version\": {\n        \"major\": \"1\",\n        \"minor\": \"3\"\n    },\n    \"domains\": [")
	for d := 0; b.Len() < size; d++ {
		if d > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n        {\n            \"domain\": \"D%d\",\n            \"description\": \"%x\",\n            \"commands\": [", d, r.Uint64())
		for c := range 20 {
			if c > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n                {\"name\": \"c%d\", \"description\": \"%x %x\"}", c, r.Uint64(), r.Uint32())
		}
		b.WriteString("\n            ]\n        }")
	}
	b.WriteString("\n    ]\n}")
	return []byte(b.String())
}

// decoy is a large resource that is not the schema: a script.
func decoy(size int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for b.Len() < size {
		fmt.Fprintf(&b, "var a%x=Object.defineProperty(%d);\n", r.Uint32(), r.IntN(1000))
	}
	return []byte(b.String())
}

// testPak is a pack with the schema stored by encode, decoys around it and
// an alias of the schema; it returns the schema too.
func testPak(t testing.TB, version uint32, encode func([]byte) []byte) (pak, doc []byte) {
	t.Helper()
	doc = fakeSchema(400 << 10)
	entries := []entry{
		{id: 10, data: []byte("small")},
		{id: 11, data: brotliResource(decoy(600 << 10))},
		{id: 12, data: encode(doc)},
		{id: 13, data: gzipResource(decoy(300 << 10))},
		{id: 14, data: nil}, // an empty resource
	}
	var aliases [][2]uint16
	if version == 5 {
		aliases = [][2]uint16{{20, 2}, {21, 0}}
	}
	return buildPak(version, entries, aliases), doc
}
