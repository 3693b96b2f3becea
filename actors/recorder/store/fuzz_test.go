package store

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// segmentBytes is a valid segment of the given records.
func segmentBytes(records ...Record) []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	w.WriteString(fileMagic)
	for _, r := range records {
		writeRecord(w, r)
	}
	w.Flush()
	return b.Bytes()
}

// Any bytes in a segment read without a panic or a huge allocation, and
// what comes back is a record Append would take.
func FuzzRead(f *testing.F) {
	valid := segmentBytes(event(0), event(1), event(2), Record{Time: at(3), Kind: "mark"})
	f.Add(valid)
	f.Add(valid[:len(valid)-3])
	f.Add(valid[:fileHeaderLen+headerLen])
	f.Add([]byte(fileMagic))
	f.Add([]byte{})
	f.Add(append([]byte(fileMagic), recordMarker, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff))
	dir := f.TempDir()
	world := filepath.Join(dir, "w")
	if err := os.Mkdir(world, 0o700); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(world, segmentName(1, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		err := Read(dir, "w", time.Time{}, func(r Record) error {
			if err := checkRecord(r); err != nil {
				t.Errorf("read back a record Append refuses: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Errorf("read: %v", err)
		}
		if _, _, _, err := Span(dir, "w"); err != nil {
			t.Errorf("span: %v", err)
		}
	})
}
