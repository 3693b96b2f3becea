package recordflags

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size is a number of bytes given as 200MB, 1GB, 500M, 64KiB or a plain
// number of bytes; K, M and G are 1024s (as the recorder counts them).
// Above 0: a cap of nothing would keep nothing.
type Size int64

// units are the suffixes, longest first within each letter.
var units = []struct {
	suffix string
	n      float64
}{
	{"kib", 1 << 10}, {"kb", 1 << 10}, {"k", 1 << 10},
	{"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20},
	{"gib", 1 << 30}, {"gb", 1 << 30}, {"g", 1 << 30},
	{"tib", 1 << 40}, {"tb", 1 << 40}, {"t", 1 << 40},
	{"b", 1},
}

// ParseSize reads a size.
func ParseSize(s string) (Size, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("%q is %s", s, SizeWant)
	}
	b := n * mult
	if b < 1 || b > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is %s", s, SizeWant)
	}
	return Size(b), nil
}

// SizeWant says what a size is, for a refusal.
const SizeWant = "not a size above 0 (e.g. 200MB, 1GB, 500M, or a number of bytes; K, M and G are 1024s)"

// Set takes a flag's value.
func (z *Size) Set(s string) error {
	v, err := ParseSize(s)
	if err != nil {
		return err
	}
	*z = v
	return nil
}

// String says the size as it would be given: 200MB, 2GB, 1536KB, 100.
func (z Size) String() string {
	n := int64(z)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n != 0 && n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// Get is the size in bytes (flag.Getter).
func (z *Size) Get() any { return int64(*z) }

// Want says what the flag takes, for the command line's refusals.
func (z *Size) Want() string { return SizeWant }
