package schema

import (
	"os"
	"testing"
)

// debianPak is where Debian's Chromium keeps its resources (measured).
const debianPak = "/usr/lib/chromium/resources.pak"

// BenchmarkFindInPakOfDebiansChromium is the cost of a first /json/protocol
// (the cache empty): docs/endpoint.md quotes it.
func BenchmarkFindInPakOfDebiansChromium(b *testing.B) {
	if _, err := os.Stat(debianPak); err != nil {
		b.Skipf("no %s: %v", debianPak, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		doc, err := FindInPak(debianPak)
		if err != nil || len(doc) < 1<<20 {
			b.Fatalf("%d bytes, %v", len(doc), err)
		}
	}
}
