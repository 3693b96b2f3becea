package storagestate

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// A file Playwright 1.65's context.storageState() wrote (a cookie with an
// expiry, a session cookie, one origin's localStorage) is read as it is.
func TestParseReadsWhatPlaywrightWrites(t *testing.T) {
	data, err := os.ReadFile("testdata/playwright-1.65.json")
	if err != nil {
		t.Fatal(err)
	}
	st, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Cookies) != 2 || st.Cookies[0].Name != "sid" || !st.Cookies[0].HTTPOnly || st.Cookies[1].Expires != -1 {
		t.Fatalf("cookies %+v", st.Cookies)
	}
	if len(st.Origins) != 1 || st.Origins[0].Origin != "http://127.0.0.1:8765" || st.Origins[0].LocalStorage[0] != (Item{"token", "tok123"}) {
		t.Fatalf("origins %+v", st.Origins)
	}
	// And written back, it is Playwright's again.
	again, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if st2, err := Parse(again); err != nil || len(st2.Cookies) != 2 {
		t.Fatalf("written and read again: %+v %v", st2, err)
	}
}

// Anything else is refused whole, saying what was expected.
func TestParseRefusesWhatIsNotAStorageState(t *testing.T) {
	cookie := `{"name":"a","value":"b","domain":"x.test","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}`
	for name, text := range map[string]string{
		"not JSON":                  `cookies=a`,
		"an array (CDP's cookies)":  `[` + cookie + `]`,
		"no origins":                `{"cookies":[]}`,
		"no cookies":                `{"origins":[]}`,
		"an unknown field":          `{"cookies":[],"origins":[],"version":2}`,
		"null cookies":              `{"cookies":null,"origins":[]}`,
		"a cookie without path":     `{"cookies":[{"name":"a","value":"b","domain":"x.test","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],"origins":[]}`,
		"a cookie of CDP's shape":   `{"cookies":[{"name":"a","value":"b","domain":"x.test","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax","size":2}],"origins":[]}`,
		"a bad sameSite":            `{"cookies":[` + strings.Replace(cookie, `"Lax"`, `"lax"`, 1) + `],"origins":[]}`,
		"sameSite None, not secure": `{"cookies":[` + strings.Replace(cookie, `"Lax"`, `"None"`, 1) + `],"origins":[]}`,
		"expires -2":                `{"cookies":[` + strings.Replace(cookie, `-1`, `-2`, 1) + `],"origins":[]}`,
		"a string for httpOnly":     `{"cookies":[` + strings.Replace(cookie, `"httpOnly":false`, `"httpOnly":"no"`, 1) + `],"origins":[]}`,
		"an origin with a path":     `{"cookies":[],"origins":[{"origin":"https://x.test/app","localStorage":[]}]}`,
		"a file: origin":            `{"cookies":[],"origins":[{"origin":"file://","localStorage":[]}]}`,
		"an origin twice":           `{"cookies":[],"origins":[{"origin":"https://x.test","localStorage":[]},{"origin":"https://x.test","localStorage":[]}]}`,
		"an item without value":     `{"cookies":[],"origins":[{"origin":"https://x.test","localStorage":[{"name":"a"}]}]}`,
		"IndexedDB data":            `{"cookies":[],"origins":[{"origin":"https://x.test","localStorage":[],"indexedDB":[{"name":"db"}]}]}`,
		"credentials":               `{"cookies":[],"origins":[],"credentials":[{"id":"x"}]}`,
	} {
		_, err := Parse([]byte(text))
		if !errors.Is(err, ErrNotStorageState) {
			t.Errorf("%s: %v, want ErrNotStorageState", name, err)
		}
	}
	if _, err := Parse([]byte(`[]`)); err == nil || !strings.Contains(err.Error(), "context.storageState()") {
		t.Errorf("the refusal says what was expected: %v", err)
	}
	// Empty lists of Playwright's optional parts are its own defaults.
	if _, err := Parse([]byte(`{"cookies":[],"origins":[{"origin":"https://x.test","localStorage":[],"indexedDB":[]}],"credentials":[]}`)); err != nil {
		t.Errorf("empty optional parts: %v", err)
	}
}

func TestCanonicalOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.COM":     "https://example.com",
		"https://example.com:443": "https://example.com",
		"http://127.0.0.1:8080/":  "http://127.0.0.1:8080",
		"http://[::1]:80":         "http://[::1]",
	} {
		if got, err := CanonicalOrigin(in); err != nil || got != want {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"example.com", "ftp://x.test", "https://u:p@x.test", "https://x.test/a", "https://x.test?q", ""} {
		if _, err := CanonicalOrigin(bad); err == nil {
			t.Errorf("CanonicalOrigin(%q) took it", bad)
		}
	}
}

// CDP's cookies become Playwright's as Playwright makes them, and go back
// as Storage.setCookies takes them.
func TestCookiesToAndFromCDP(t *testing.T) {
	cdp := `[{"name":"s","value":"1","domain":".x.test","path":"/","expires":-1,"size":2,"httpOnly":true,"secure":true,"session":true,"priority":"Medium","sourceScheme":"Secure"},
		{"name":"p","value":"2","domain":"x.test","path":"/","expires":1900000000,"httpOnly":false,"secure":true,"session":false,"sameSite":"None","partitionKey":{"topLevelSite":"https://top.test","hasCrossSiteAncestor":false}},
		{"name":"o","value":"3","domain":"x.test","path":"/","expires":-1,"session":true,"partitionKey":{"topLevelSite":"","hasCrossSiteAncestor":true}}]`
	got := FromCDP(json.RawMessage(cdp))
	if len(got) != 2 {
		t.Fatalf("cookies %+v: the opaque partition's is dropped, the others kept", got)
	}
	if got[0].SameSite != "Lax" || got[0].Expires != -1 || got[1].PartitionKey != "https://top.test" || *got[1].CrossSiteAncestor {
		t.Fatalf("cookies %+v", got)
	}
	session := got[0].CDP()
	if _, has := session["expires"]; has {
		t.Errorf("a session cookie is set with an expiry: %v", session)
	}
	pk, _ := got[1].CDP()["partitionKey"].(map[string]any)
	if pk["topLevelSite"] != "https://top.test" || pk["hasCrossSiteAncestor"] != false {
		t.Errorf("partition key %v", pk)
	}
}

func TestMergeLaysOneStateOnAnother(t *testing.T) {
	c := func(name, value string) Cookie {
		return Cookie{Name: name, Value: value, Domain: "x.test", Path: "/", Expires: -1, SameSite: "Lax"}
	}
	base := State{Cookies: []Cookie{c("a", "1"), c("b", "1")}, Origins: []Origin{{Origin: "https://x.test", LocalStorage: []Item{{"k", "1"}, {"j", "1"}}}}}
	over := State{Cookies: []Cookie{c("b", "2")}, Origins: []Origin{{Origin: "https://x.test", LocalStorage: []Item{{"k", "2"}}}, {Origin: "https://y.test", LocalStorage: []Item{{"m", "1"}}}}}
	got := Merge(base, over)
	if len(got.Cookies) != 2 || got.Cookies[0].Value != "1" || got.Cookies[1].Value != "2" {
		t.Fatalf("cookies %+v", got.Cookies)
	}
	if len(got.Origins) != 2 || len(got.Origins[0].LocalStorage) != 2 || got.Origins[0].LocalStorage[1] != (Item{"k", "2"}) {
		t.Fatalf("origins %+v", got.Origins)
	}
	if base.Cookies[1].Value != "1" || base.Origins[0].LocalStorage[0].Value != "1" {
		t.Fatal("Merge changed its base")
	}
}

// A cookie goes to the hosts a browser would send it to by its domain.
func TestForOriginsKeepsWhatTheyWouldSend(t *testing.T) {
	st := State{
		Cookies: []Cookie{
			{Name: "host", Domain: "shop.test"}, {Name: "dom", Domain: ".shop.test"}, {Name: "sub", Domain: "www.shop.test"},
			{Name: "other", Domain: "bank.test"}, {Name: "tail", Domain: ".hop.test"},
		},
		Origins: []Origin{{Origin: "https://shop.test"}, {Origin: "https://bank.test"}},
	}
	got := st.ForOrigins([]string{"https://shop.test"})
	var names []string
	for _, c := range got.Cookies {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "host,dom" || len(got.Origins) != 1 || got.Origins[0].Origin != "https://shop.test" {
		t.Fatalf("for shop.test: cookies %v, origins %+v", names, got.Origins)
	}
	www := st.ForOrigins([]string{"https://www.shop.test:8443"})
	if len(www.Cookies) != 2 || www.Cookies[0].Name != "dom" || www.Cookies[1].Name != "sub" {
		t.Fatalf("for www.shop.test: %+v", www.Cookies)
	}
}
