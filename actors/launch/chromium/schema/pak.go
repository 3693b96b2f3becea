package schema

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ErrMalformedPak is a file that is not a grit resource pack this package
// reads (versions 4 and 5), or one whose index points outside itself.
var ErrMalformedPak = errors.New("not a readable resource pack")

// Pak is the index of a grit data pack (Chromium's *.pak): where each
// resource's bytes lie. It holds no resource bytes.
type Pak struct {
	Version  uint32
	Encoding uint8 // 0 binary, 1 UTF-8, 2 UTF-16: what the file says, unused here
	// Resources are the entries in file order, each with its own bytes.
	Resources []Resource
	// Aliases maps an alias id to the index in Resources of the entry whose
	// bytes it shares.
	Aliases map[uint16]int
}

// Resource is one entry: the bytes [Offset, Offset+Size) of the file.
type Resource struct {
	ID     uint16
	Offset int64
	Size   int64
}

// Lookup finds a resource by id, an alias's too.
func (p *Pak) Lookup(id uint16) (Resource, bool) {
	for _, r := range p.Resources {
		if r.ID == id {
			return r, true
		}
	}
	if i, ok := p.Aliases[id]; ok {
		r := p.Resources[i]
		r.ID = id
		return r, true
	}
	return Resource{}, false
}

// The two layouts, from grit's data_pack.py (format 4 up to Chrome 67,
// format 5 since; measured here: 5 in Debian's Chromium 156):
//
//	v4: uint32 version, uint32 resource_count, uint8 encoding
//	v5: uint32 version, uint8 encoding, 3 pad bytes, uint16 resource_count, uint16 alias_count
//
// then (resource_count+1) entries {uint16 id, uint32 offset}, the last one
// marking the end of the last resource, then (v5) alias_count entries
// {uint16 id, uint16 entry_index}. All little-endian.
const (
	headerV4  = 9
	headerV5  = 12
	entrySize = 6
	aliasSize = 4
)

// ReadPak reads the index of the pack r of size bytes. It reads only the
// header and the tables, and refuses any index that points outside the
// file or backwards.
func ReadPak(r io.ReaderAt, size int64) (*Pak, error) {
	var head [headerV5]byte
	if size < headerV4 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header", ErrMalformedPak, size)
	}
	if _, err := r.ReadAt(head[:min(int64(len(head)), size)], 0); err != nil {
		return nil, fmt.Errorf("%w: its header: %w", ErrMalformedPak, err)
	}
	p := &Pak{Version: binary.LittleEndian.Uint32(head[0:4])}
	var count, aliases, tables int64
	switch p.Version {
	case 4:
		count, p.Encoding, tables = int64(binary.LittleEndian.Uint32(head[4:8])), head[8], headerV4
	case 5:
		if size < headerV5 {
			return nil, fmt.Errorf("%w: %d bytes, shorter than a version 5 header", ErrMalformedPak, size)
		}
		p.Encoding = head[4]
		count, aliases = int64(binary.LittleEndian.Uint16(head[8:10])), int64(binary.LittleEndian.Uint16(head[10:12]))
		tables = headerV5
	default:
		return nil, fmt.Errorf("%w: version %d (4 and 5 are known)", ErrMalformedPak, p.Version)
	}
	end := tables + (count+1)*entrySize + aliases*aliasSize
	if end > size { // before allocating: a v4 count is 32 bits wide
		return nil, fmt.Errorf("%w: %d resources and %d aliases need %d bytes of index, the file has %d", ErrMalformedPak, count, aliases, end, size)
	}
	index := make([]byte, end-tables)
	if _, err := r.ReadAt(index, tables); err != nil {
		return nil, fmt.Errorf("%w: its index: %w", ErrMalformedPak, err)
	}
	if err := p.readEntries(index[:(count+1)*entrySize], end, size); err != nil {
		return nil, err
	}
	if err := p.readAliases(index[(count+1)*entrySize:]); err != nil {
		return nil, err
	}
	return p, nil
}

// readEntries reads the entries; each resource ends where the next
// begins, after the index and within the file.
func (p *Pak) readEntries(table []byte, indexEnd, size int64) error {
	n := len(table)/entrySize - 1
	p.Resources = make([]Resource, n)
	prev := indexEnd
	for i := 0; i <= n; i++ {
		e := table[i*entrySize:]
		off := int64(binary.LittleEndian.Uint32(e[2:6]))
		if off < prev || off > size {
			return fmt.Errorf("%w: entry %d starts at %d, outside [%d, %d]", ErrMalformedPak, i, off, prev, size)
		}
		if i < n {
			p.Resources[i] = Resource{ID: binary.LittleEndian.Uint16(e[0:2]), Offset: off}
		}
		if i > 0 {
			p.Resources[i-1].Size = off - p.Resources[i-1].Offset
		}
		prev = off
	}
	return nil
}

func (p *Pak) readAliases(table []byte) error {
	p.Aliases = make(map[uint16]int, len(table)/aliasSize)
	for i := 0; i+aliasSize <= len(table); i += aliasSize {
		id, at := binary.LittleEndian.Uint16(table[i:]), int(binary.LittleEndian.Uint16(table[i+2:]))
		if at >= len(p.Resources) {
			return fmt.Errorf("%w: alias %d names entry %d of %d", ErrMalformedPak, id, at, len(p.Resources))
		}
		p.Aliases[id] = at
	}
	return nil
}
