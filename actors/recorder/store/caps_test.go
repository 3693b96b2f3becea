package store

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Past the world cap the oldest records go, the newest stay, and the cap
// is never passed.
func TestWorldCap(t *testing.T) {
	const limit = 4000
	s := open(t, Spec{WorldCap: limit, SegmentSize: 1000})
	dir := s.spec.Dir
	var written int64
	for i := range 300 {
		appendN(t, s, "shop", i, i+1)
		written += recordSize(event(i))
		if s.Size("shop") > limit {
			t.Fatalf("record %d: %d bytes stored", i, s.Size("shop"))
		}
	}
	s.Flush("shop")
	got := indexes(t, dir, "shop", time.Time{})
	if len(got) == 0 || got[0] == 0 || !slices.Equal(got, span(got[0], 300)) {
		t.Fatalf("kept %v", got)
	}
	if s.Size("shop") < limit/2 {
		t.Errorf("only %d bytes kept", s.Size("shop"))
	}
	segs := segmentFiles(t, dir, "shop")
	var onDisk int64
	for _, seg := range segs {
		onDisk += seg.size
	}
	if onDisk != s.Size("shop") {
		t.Errorf("%d bytes on disk, %d counted", onDisk, s.Size("shop"))
	}
	if d := s.Dropped("shop"); d <= 0 || d+s.Size("shop") < written {
		t.Errorf("dropped %d, kept %d, written %d", d, s.Size("shop"), written)
	}
}

// Past the total cap the oldest segment of all worlds goes; an idle
// world's open segment only when no closed one is left.
func TestTotalCap(t *testing.T) {
	const total = 6000
	s := open(t, Spec{WorldCap: 5000, TotalCap: total, SegmentSize: 1000})
	dir := s.spec.Dir
	appendN(t, s, "idle", 0, 1) // the oldest, and stays open
	for i := 1; i < 200; i++ {
		world := "cart"
		if i%2 == 0 {
			world = "shop"
		}
		appendN(t, s, world, i, i+1)
		if s.Total() > total {
			t.Fatalf("record %d: %d bytes stored", i, s.Total())
		}
	}
	if s.Total() != s.Size("idle")+s.Size("cart")+s.Size("shop") {
		t.Errorf("total %d", s.Total())
	}
	for _, w := range s.Worlds() {
		s.Flush(w)
	}
	if got := indexes(t, dir, "idle", time.Time{}); !slices.Equal(got, []int{0}) {
		t.Errorf("the idle world's open segment went before closed ones: %v", got)
	}
	cart, shop := indexes(t, dir, "cart", time.Time{}), indexes(t, dir, "shop", time.Time{})
	if len(cart) == 0 || len(shop) == 0 || cart[len(cart)-1] != 199 || shop[len(shop)-1] != 198 {
		t.Fatalf("cart %v, shop %v", cart, shop)
	}
	if s.Dropped("cart") == 0 || s.Dropped("shop") == 0 {
		t.Errorf("dropped cart %d, shop %d", s.Dropped("cart"), s.Dropped("shop"))
	}

	// With no closed segment left, an idle world's open one goes, the oldest.
	s2 := open(t, Spec{WorldCap: 3000, TotalCap: 3000, SegmentSize: 1500})
	big := func(i int) Record { return Record{Time: at(i), Kind: "frame", Data: make([]byte, 1000)} }
	for i, world := range []string{"first", "second", "third"} {
		if err := s2.Append(world, big(i)); err != nil {
			t.Fatal(err)
		}
	}
	if s2.Size("first") != 0 || s2.Dropped("first") == 0 || !slices.Equal(s2.Worlds(), []string{"second", "third"}) {
		t.Errorf("first: %d bytes, %d dropped, worlds %v", s2.Size("first"), s2.Dropped("first"), s2.Worlds())
	}
	if s2.Total() > 3000 {
		t.Errorf("total %d", s2.Total())
	}
	if err := s2.Append("first", big(3)); err != nil { // it begins again
		t.Fatal(err)
	}
	if s2.Size("second") != 0 || s2.Size("first") == 0 {
		t.Errorf("second %d, first %d", s2.Size("second"), s2.Size("first"))
	}
}

// The caps count what a former run stored, and a lowered cap trims it.
func TestCapsHoldAcrossReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	s := open(t, Spec{Dir: dir, WorldCap: 4000, SegmentSize: 1000})
	appendN(t, s, "shop", 0, 200)
	appendN(t, s, "cart", 0, 10)
	size, total := s.Size("shop"), s.Total()
	s.Close()

	s = open(t, Spec{Dir: dir, WorldCap: 4000, SegmentSize: 1000})
	if s.Size("shop") != size || s.Total() != total || !slices.Equal(s.Worlds(), []string{"cart", "shop"}) {
		t.Fatalf("reopened: shop %d (was %d), total %d (was %d), worlds %v", s.Size("shop"), size, s.Total(), total, s.Worlds())
	}
	for i := 200; i < 300; i++ {
		appendN(t, s, "shop", i, i+1)
		if s.Size("shop") > 4000 {
			t.Fatalf("record %d: %d bytes", i, s.Size("shop"))
		}
	}
	s.Flush("shop")
	got := indexes(t, dir, "shop", time.Time{})
	if len(got) == 0 || !slices.Equal(got, span(got[0], 300)) {
		t.Fatalf("kept %v", got)
	}
	s.Close()

	s = open(t, Spec{Dir: dir, WorldCap: 2000, TotalCap: 2500})
	if s.Size("shop") > 2000 || s.Total() > 2500 || s.Dropped("shop") == 0 {
		t.Errorf("lowered caps: shop %d, total %d, dropped %d", s.Size("shop"), s.Total(), s.Dropped("shop"))
	}
	got = indexes(t, dir, "shop", time.Time{})
	if len(got) == 0 || got[len(got)-1] != 299 {
		t.Errorf("kept %v", got)
	}
}
