package schema

import (
	"bytes"
	"testing"
)

// FuzzReadPak: any bytes are read or refused, never a panic, and an index
// read points only inside the file; each resource's head opens the same.
func FuzzReadPak(f *testing.F) {
	for _, v := range []uint32{4, 5} {
		f.Add(buildPak(v, []entry{{1, []byte("one")}, {2, brotliResource([]byte(`{"version":{}}`))}, {3, gzipResource([]byte("three"))}}, [][2]uint16{{9, 0}}))
	}
	f.Add([]byte{5, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0, 0})
	f.Add([]byte{4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		p, err := ReadPak(r, int64(len(data)))
		if err != nil {
			return
		}
		var d decoders
		for _, res := range p.Resources {
			if res.Offset < 0 || res.Size < 0 || res.Offset+res.Size > int64(len(data)) {
				t.Fatalf("resource %+v outside %d bytes", res, len(data))
			}
			if s, err := openResource(r, res); err == nil {
				_, _ = d.prefix(s, headSize)
			}
		}
		for id, i := range p.Aliases {
			if _, ok := p.Lookup(id); !ok || i >= len(p.Resources) {
				t.Fatalf("alias %d of entry %d unknown", id, i)
			}
		}
	})
}
