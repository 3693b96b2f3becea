package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
)

// fileMagic begins every segment: a name and the format's version.
const fileMagic = "CDPVREC\x01"

const (
	fileHeaderLen = int64(len(fileMagic))
	recordMarker  = 0xA5
	headerLen     = 26

	// MaxKind, MaxMeta and MaxData bound a record's parts: Append refuses
	// more, and a reader never allocates more on a length it read.
	MaxKind = 32
	MaxMeta = 1 << 20
	MaxData = 16 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errTorn is a record cut short or failing a check: it ends its segment.
var errTorn = errors.New("a torn or damaged record")

// Times must fit Unix nanoseconds, and names want them non-negative.
var (
	minTime = time.Unix(0, 0)
	maxTime = time.Unix(0, 1<<63-1)
)

// checkRecord refuses what could not be written or read back.
func checkRecord(r Record) error {
	if len(r.Kind) == 0 || len(r.Kind) > MaxKind || !kindChars(r.Kind) {
		return fmt.Errorf("%w: kind %q", ErrBadRecord, r.Kind)
	}
	if r.Time.Before(minTime) || r.Time.After(maxTime) {
		return fmt.Errorf("%w: time %s", ErrBadRecord, r.Time.UTC().Format(time.RFC3339))
	}
	if len(r.Meta) > MaxMeta || len(r.Data) > MaxData {
		return fmt.Errorf("%w: meta %d bytes, data %d bytes", ErrTooLarge, len(r.Meta), len(r.Data))
	}
	return nil
}

func kindChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// recordSize is the bytes r takes in a segment.
func recordSize(r Record) int64 {
	return headerLen + int64(len(r.Kind)+len(r.Meta)+len(r.Data))
}

// writeRecord writes r (checked) to w.
func writeRecord(w *bufio.Writer, r Record) error {
	var h [headerLen]byte
	h[0] = recordMarker
	h[1] = byte(len(r.Kind))
	binary.BigEndian.PutUint64(h[2:], uint64(r.Time.UnixNano()))
	binary.BigEndian.PutUint32(h[10:], uint32(len(r.Meta)))
	binary.BigEndian.PutUint32(h[14:], uint32(len(r.Data)))
	sum := crc32.Update(0, castagnoli, []byte(r.Kind))
	sum = crc32.Update(sum, castagnoli, r.Meta)
	sum = crc32.Update(sum, castagnoli, r.Data)
	binary.BigEndian.PutUint32(h[18:], sum)
	binary.BigEndian.PutUint32(h[22:], crc32.Checksum(h[:22], castagnoli))
	w.Write(h[:])
	w.WriteString(r.Kind)
	w.Write(r.Meta)
	_, err := w.Write(r.Data)
	return err // a bufio.Writer keeps its first error
}

// header is a record's header, checked.
type header struct {
	kindLen, metaLen, dataLen int
	nanos                     int64
	bodySum                   uint32
}

func (h header) bodyLen() int64 { return int64(h.kindLen + h.metaLen + h.dataLen) }

func parseHeader(b *[headerLen]byte) (header, bool) {
	h := header{
		kindLen: int(b[1]),
		nanos:   int64(binary.BigEndian.Uint64(b[2:])),
		metaLen: int(binary.BigEndian.Uint32(b[10:])),
		dataLen: int(binary.BigEndian.Uint32(b[14:])),
		bodySum: binary.BigEndian.Uint32(b[18:]),
	}
	ok := b[0] == recordMarker && binary.BigEndian.Uint32(b[22:]) == crc32.Checksum(b[:22], castagnoli) &&
		h.kindLen >= 1 && h.kindLen <= MaxKind && h.metaLen <= MaxMeta && h.dataLen <= MaxData && h.nanos >= 0
	return h, ok
}

// segmentReader reads one segment's records through ReadAt, so that a
// header-only scan (Span) seeks past the bodies.
type segmentReader struct {
	ra  io.ReaderAt
	off int64
}

// newSegmentReader checks the segment's magic; ok false: not (yet) a
// segment of this format, read as empty.
func newSegmentReader(ra io.ReaderAt) (sr *segmentReader, ok bool, err error) {
	var m [len(fileMagic)]byte
	n, err := ra.ReadAt(m[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	if n < len(m) || string(m[:]) != fileMagic {
		return nil, false, nil
	}
	return &segmentReader{ra: ra, off: fileHeaderLen}, true, nil
}

// next reads the next record, its body too when withBody. It answers
// io.EOF at the segment's clean end and errTorn at a torn or damaged
// record (both end the segment), or a read error.
func (sr *segmentReader) next(withBody bool) (Record, error) {
	var b [headerLen]byte
	n, err := sr.ra.ReadAt(b[:], sr.off)
	switch {
	case n == len(b):
	case err != nil && !errors.Is(err, io.EOF):
		return Record{}, err
	case n == 0:
		return Record{}, io.EOF
	default:
		return Record{}, errTorn
	}
	h, ok := parseHeader(&b)
	if !ok {
		return Record{}, errTorn
	}
	r := Record{Time: time.Unix(0, h.nanos)}
	bodyAt := sr.off + headerLen
	if !withBody {
		// The body must be there all the same: a torn last record is none.
		var last [1]byte
		if n, err := sr.ra.ReadAt(last[:], bodyAt+h.bodyLen()-1); n != 1 {
			if err != nil && !errors.Is(err, io.EOF) {
				return Record{}, err
			}
			return Record{}, errTorn
		}
		sr.off = bodyAt + h.bodyLen()
		return r, nil
	}
	body := make([]byte, h.bodyLen())
	if n, err := sr.ra.ReadAt(body, bodyAt); n < len(body) {
		if err != nil && !errors.Is(err, io.EOF) {
			return Record{}, err
		}
		return Record{}, errTorn
	}
	if crc32.Checksum(body, castagnoli) != h.bodySum {
		return Record{}, errTorn
	}
	r.Kind = string(body[:h.kindLen])
	if !kindChars(r.Kind) {
		return Record{}, errTorn
	}
	if h.metaLen > 0 {
		r.Meta = body[h.kindLen : h.kindLen+h.metaLen : h.kindLen+h.metaLen]
	}
	if h.dataLen > 0 {
		r.Data = body[h.kindLen+h.metaLen:]
	}
	sr.off = bodyAt + h.bodyLen()
	return r, nil
}
