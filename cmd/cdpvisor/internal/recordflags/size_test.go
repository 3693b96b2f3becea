package recordflags

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]Size{
		"200MB": 200 << 20, "1GB": 1 << 30, "500M": 500 << 20, "1048576": 1 << 20, "64KiB": 64 << 10, "1.5g": 3 << 29,
		" 2 GB ": 2 << 30, "10b": 10, "1TB": 1 << 40,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1MB", "MB", "lots", "1.2.3M", "NaN", "Inf", "1e30GB"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
	for _, z := range []Size{DefaultCap, DefaultTotalCap, 1536 << 10, 100} {
		s := z.String()
		if back, err := ParseSize(s); err != nil || back != z {
			t.Errorf("%d says %q, read back %d %v", z, s, back, err)
		}
	}
	if DefaultCap.String() != "200MB" || DefaultTotalCap.String() != "2GB" {
		t.Errorf("defaults say %s and %s", DefaultCap.String(), DefaultTotalCap.String())
	}
}
