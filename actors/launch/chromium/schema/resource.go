package schema

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
)

// ErrMalformedResource is a resource whose compressed bytes do not
// decompress to what its header declares.
var ErrMalformedResource = errors.New("unreadable resource")

// How grit stores a resource's bytes: as they are, gzipped, or brotli'd
// behind a header of its own (grit's brotli_util: the magic bytes 0x1e 0x9b,
// then the uncompressed size in 6 bytes, little-endian; measured in
// Chromium 156, whose protocol schema is stored so).
var (
	brotliMagic = []byte{0x1e, 0x9b}
	gzipMagic   = []byte{0x1f, 0x8b}
)

const brotliHeader = 8

// stored is one resource of a pack, opened for reading.
type stored struct {
	bytes *io.SectionReader
	// declared is the size it decompresses to: brotli's header says it,
	// gzip's trailer says it modulo 2^32, a raw resource is its size.
	declared int64
	codec    codec
}

type codec int

const (
	raw codec = iota
	brotlied
	gzipped
)

// openResource reads a resource's head (and a gzip trailer) to tell how
// it is stored; it decompresses nothing yet.
func openResource(r io.ReaderAt, res Resource) (stored, error) {
	s := stored{bytes: io.NewSectionReader(r, res.Offset, res.Size), declared: res.Size}
	var head [brotliHeader]byte
	n, err := s.bytes.ReadAt(head[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return stored{}, err
	}
	switch {
	case n >= brotliHeader && bytes.HasPrefix(head[:], brotliMagic):
		var size [8]byte
		copy(size[:6], head[2:8])
		s.declared, s.codec = int64(binary.LittleEndian.Uint64(size[:])), brotlied
	case n >= len(gzipMagic) && bytes.HasPrefix(head[:n], gzipMagic) && res.Size >= 18: // 10 bytes of header, 8 of trailer
		var isize [4]byte
		if _, err := s.bytes.ReadAt(isize[:], res.Size-4); err != nil {
			return stored{}, err
		}
		s.declared, s.codec = int64(binary.LittleEndian.Uint32(isize[:])), gzipped
	}
	return s, nil
}

// decoders decompress the resources of one pack, one at a time: the brotli
// reader is reused, as its window (up to 16 MB) is what a look costs.
type decoders struct {
	brotli *brotli.Reader
}

// open starts reading s's decompressed bytes from their beginning.
func (d *decoders) open(s stored) (io.Reader, error) {
	whole := io.NewSectionReader(s.bytes, 0, s.bytes.Size())
	switch s.codec {
	case brotlied:
		stream := io.NewSectionReader(s.bytes, brotliHeader, s.bytes.Size()-brotliHeader)
		if d.brotli == nil {
			d.brotli = brotli.NewReader(stream)
		} else if err := d.brotli.Reset(stream); err != nil {
			return nil, err
		}
		return d.brotli, nil
	case gzipped:
		return gzip.NewReader(whole)
	}
	return whole, nil
}

// prefix decompresses the first n bytes (fewer if it is shorter).
func (d *decoders) prefix(s stored, n int) ([]byte, error) {
	rd, err := d.open(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedResource, err)
	}
	buf := make([]byte, n)
	got, err := io.ReadFull(rd, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %w", ErrMalformedResource, err)
	}
	return buf[:got], nil
}

// all decompresses the whole resource, refusing one larger than limit. It
// reads into one buffer of the declared size (plus the byte that tells the
// end), so a schema costs its own size and not a doubling buffer's.
func (d *decoders) all(s stored, limit int64) ([]byte, error) {
	rd, err := d.open(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedResource, err)
	}
	buf := make([]byte, 0, max(0, min(s.declared, limit))+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the declared size was short
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, fmt.Errorf("%w: larger than %d bytes", ErrMalformedResource, limit)
		}
		if errors.Is(err, io.EOF) {
			if s.codec == brotlied && int64(len(buf)) != s.declared || s.codec == gzipped && int64(uint32(len(buf))) != s.declared {
				return nil, fmt.Errorf("%w: %d bytes, its header says %d", ErrMalformedResource, len(buf), s.declared)
			}
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMalformedResource, err)
		}
	}
}
