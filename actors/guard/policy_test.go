package guard

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParsePatternReadsEachForm(t *testing.T) {
	for _, c := range []struct {
		in   string
		host string
		port int
		wild bool
		ip   bool
	}{
		{"example.com", "example.com", 0, false, false},
		{"Example.COM.", "example.com", 0, false, false},
		{"*.example.com", "example.com", 0, true, false},
		{"example.com:8443", "example.com", 8443, false, false},
		{"127.0.0.1:8080", "127.0.0.1", 8080, false, true},
		{"10.0.0.5", "10.0.0.5", 0, false, true},
		{"[::1]:9000", "::1", 9000, false, true},
		{"[::1]", "::1", 0, false, true},
		{"xn--bcher-kva.example", "xn--bcher-kva.example", 0, false, false},
	} {
		p, err := ParsePattern(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if p.host != c.host || p.port != c.port || p.wildcard != c.wild || p.ip.IsValid() != c.ip {
			t.Errorf("%q read as %+v", c.in, p)
		}
	}
}

func TestParsePatternRefusesWhatItCannotRead(t *testing.T) {
	for in, why := range map[string]string{
		"":                    "empty",
		"https://example.com": "not a URL",
		"example.com/path":    "not a URL",
		"exa*mple.com":        "* stands only first",
		"*":                   "* stands only first",
		"example.com:0":       "1 to 65535",
		"example.com:99999":   "1 to 65535",
		"::1":                 "between [ ]",
		"[::1":                "[::1]:PORT",
		"[127.0.0.1]":         "not an IPv6 address",
		"bücher.example":      "punycode",
		"a..b":                "empty or overlong label",
		"user@example.com":    "not a URL",
	} {
		_, err := ParsePattern(in)
		if !errors.Is(err, ErrBadPattern) || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want ErrBadPattern saying %q", in, err, why)
		}
	}
}

func TestParsePolicyNamesEveryBadPattern(t *testing.T) {
	_, err := ParsePolicy([]string{"ok.example", "bad/one"}, []string{"*"})
	if err == nil || !strings.Contains(err.Error(), `allow: bad host pattern "bad/one"`) || !strings.Contains(err.Error(), `deny: bad host pattern "*"`) {
		t.Fatalf("%v", err)
	}
}

func TestPolicyJudgesByNameDenyWins(t *testing.T) {
	p, err := ParsePolicy([]string{"example.com", "*.example.com", "127.0.0.1:8080"}, []string{"secret.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host  string
		port  int
		allow bool
	}{
		{"example.com", 443, true},
		{"a.example.com", 443, true},
		{"a.b.example.com", 80, true},
		{"secret.example.com", 443, false},
		{"notexample.com", 443, false},
		{"127.0.0.1", 8080, true},
		{"127.0.0.1", 8081, false},
		{"other.org", 443, false},
	} {
		if v := p.ByName(c.host, c.port); v.Allowed != c.allow {
			t.Errorf("%s:%d: %+v, want allowed=%v", c.host, c.port, v, c.allow)
		}
	}
	empty, _ := ParsePolicy(nil, []string{"*.ads.example"})
	if v := empty.ByName("any.org", 443); !v.Allowed || v.Named {
		t.Errorf("an empty allow list: %+v", v)
	}
	if v := empty.ByName("x.ads.example", 443); v.Allowed {
		t.Errorf("denied by the deny list: %+v", v)
	}
}

func TestPolicyPrivateAddressesNeedNaming(t *testing.T) {
	empty, _ := ParsePolicy(nil, nil)
	named, _ := ParsePolicy([]string{"intranet.example", "127.0.0.1:8080"}, []string{"10.9.9.9"})
	for _, c := range []struct {
		p     *Policy
		host  string
		ip    string
		allow bool
	}{
		{empty, "public.example", "93.184.216.34", true},
		{empty, "rebind.example", "127.0.0.1", false},
		{empty, "metadata", "169.254.169.254", false},
		{empty, "x", "10.1.2.3", false},
		{empty, "x", "100.64.1.1", false},
		{empty, "x", "::1", false},
		{empty, "x", "fe80::1", false},
		{empty, "x", "::ffff:127.0.0.1", false},
		{empty, "x", "0.0.0.0", false},
		{named, "intranet.example", "10.1.2.3", true},
		{named, "intranet.example", "10.9.9.9", false}, // a denied address wins
		{named, "127.0.0.1", "127.0.0.1", true},
	} {
		v := c.p.ByName(c.host, 8080)
		ok, why := c.p.ByAddress(v, netip.MustParseAddr(c.ip), 8080)
		if v.Allowed && ok != c.allow {
			t.Errorf("%s at %s: %v (%s), want %v", c.host, c.ip, ok, why, c.allow)
		}
	}
}

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"example.com", "*.a.b:1", "[::1]:80", "1.2.3.4", "a:b:c", "[", "*.", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePattern(s)
		if err != nil {
			return
		}
		again, err := ParsePattern(p.String())
		if err != nil || again != p {
			t.Fatalf("%q read as %+v, its text read as %+v (%v)", s, p, again, err)
		}
	})
}

// No policy (a world with an upstream proxy alone) is open: every host,
// private addresses too; only a policy makes them opt-in.
func TestNoPolicyIsOpen(t *testing.T) {
	var p *Policy
	v := p.ByName("internal.example", 80)
	if !v.Allowed || !v.Named {
		t.Fatalf("by name: %+v", v)
	}
	for _, a := range []string{"127.0.0.1", "169.254.169.254", "10.0.0.1", "::1"} {
		if ok, why := p.ByAddress(v, netip.MustParseAddr(a), 80); !ok {
			t.Errorf("%s denied: %s", a, why)
		}
	}
	if !p.Empty() || p.AllowHosts() != nil || p.DenyHosts() != nil {
		t.Fatal("no policy has lists")
	}
}
