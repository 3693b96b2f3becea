package pwtrace

import (
	"archive/zip"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"time"
)

// images keeps each distinct JPEG once in the zip, as resources/<sha1>
// (the name Playwright gives a resource: a page that did not change sends
// the same bytes again). They are stored, not deflated: a JPEG does not
// shrink, and deflating it would cost the coordinator's CPU for nothing.
type images struct {
	zip   *zip.Writer
	names map[[sha1.Size]byte]string
}

func newImages(z *zip.Writer) *images {
	return &images{zip: z, names: map[[sha1.Size]byte]string{}}
}

// put writes jpeg unless it is written already, and answers its entry's
// name and whether it was new.
func (im *images) put(jpeg []byte, modified time.Time) (string, bool, error) {
	sum := sha1.Sum(jpeg)
	if name, ok := im.names[sum]; ok {
		return name, false, nil
	}
	name := "resources/" + hex.EncodeToString(sum[:])
	// CreateRaw with the sizes and CRC known puts them in the local header:
	// no data descriptor, which every zip reader can follow.
	w, err := im.zip.CreateRaw(&zip.FileHeader{
		Name:               name,
		Method:             zip.Store,
		Modified:           modified,
		CRC32:              crc32.ChecksumIEEE(jpeg),
		CompressedSize64:   uint64(len(jpeg)),
		UncompressedSize64: uint64(len(jpeg)),
	})
	if err != nil {
		return "", false, fmt.Errorf("pwtrace: add %s: %w", name, err)
	}
	if _, err := w.Write(jpeg); err != nil {
		return "", false, fmt.Errorf("pwtrace: write %s: %w", name, err)
	}
	im.names[sum] = name
	return name, true, nil
}
