// Package store keeps the worlds' recordings on disk: each world's
// screencast frames and events as records in capped, append-only segment
// files, read back (by export, by HTTP) while the recorder writes on.
//
// It is not an actor: one goroutine (the recorder's writer) owns a *Store
// and calls its methods (they hold a lock, so a stray Size from elsewhere
// is safe, but the design is one writer); readers use the free functions
// Read and Span, from any goroutine, at the same time, touching nothing
// but the files.
//
// # Layout
//
//	DIR/                       0700, this user's, no group or other bits
//	  WORLD/                   0700
//	    SEQ-BOUND.rec          0600, a segment (SEQ and BOUND decimal)
//	    switch                 0600, "on" or "off": the world's record switch
//
// SEQ counts a world's segments up from 1 (after a restart, on from the
// highest there). BOUND is a Unix time in nanoseconds no record of an
// earlier segment is later than: the larger of the first record's time and
// every time the world recorded before. So Read skips segment k whole when
// BOUND of segment k+1 is before since, without opening it, and that holds
// even if the caller's times step back. Names never change: a reader's
// listing stays valid until a segment is deleted, which it skips.
//
// A world has at most one open segment, written through a bufio.Writer;
// it is closed and a new one begun when the next record would take it past
// Spec.SegmentSize. After Open every world begins a new segment, so a torn
// tail a crash left stays at the end of a closed one.
//
// # Format (format.go)
//
// A segment begins with 8 bytes, "CDPVREC" and a version byte (1). Each
// record is a 26-byte header, then its kind, meta and data:
//
//	0      marker 0xA5
//	1      kind length, 1..32
//	2..9   time, Unix nanoseconds, big-endian int64
//	10..13 meta length, at most MaxMeta (1 MB)
//	14..17 data length, at most MaxData (16 MB)
//	18..21 CRC-32C of kind, meta and data
//	22..25 CRC-32C of bytes 0..21
//
// A reader trusts no length before the header's CRC checked it, and
// allocates at most the maxima: a short header or body (a crash mid-write,
// or the writer's buffer flushed mid-record), or anything that fails a
// check, ends that segment quietly; the next segment is read on.
//
// # Caps
//
// The caps hold before every write (caps.go): the world's oldest segments
// are deleted until the record fits in Spec.WorldCap, then the oldest
// segments of all worlds until it fits in Spec.TotalCap. Closed segments go
// first, oldest (by BOUND) first; an open segment (another world's, idle)
// goes only when no closed one is left: it is closed, its unwritten buffer
// discarded, and deleted. So the newest records are kept, the caps are never
// passed, not even for a moment, and a record larger than a cap is refused
// (ErrTooLarge). Spec.SegmentSize is held to half the smaller cap, so that
// dropping the oldest segment never drops everything. Open measures what is
// there, and trims it to the caps: they hold across restarts.
//
// # Privacy
//
// Nothing recorded is ever logged: logs name worlds, sizes and counts.
package store
