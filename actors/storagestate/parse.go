package storagestate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
)

// MaxSize bounds a storage state read from a file or a request.
const MaxSize = 32 << 20

// ErrNotStorageState refuses what is not a Playwright storage state.
var ErrNotStorageState = errors.New("not a Playwright storage state")

// Expected says what a storage state looks like, for the refusals.
const Expected = `Playwright's storage state (the file context.storageState() writes): {"cookies":[{"name","value","domain","path","expires","httpOnly","secure","sameSite"}…],"origins":[{"origin","localStorage":[{"name","value"}…]}…]}`

// Parse reads a storage state, refusing anything else whole: unknown or
// missing fields, wrong types, an origin that is not one, a cookie
// Chromium would not take. Nothing of a refused state is used.
func Parse(data []byte) (State, error) {
	if len(data) > MaxSize {
		return State{}, fmt.Errorf("%w: %d bytes, more than the %d a storage state may have", ErrNotStorageState, len(data), MaxSize)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return State{}, fmt.Errorf("%w: not a JSON object (%v); expected %s", ErrNotStorageState, orNull(err), Expected)
	}
	for key, raw := range top {
		switch key {
		case "cookies", "origins":
		case "credentials": // Playwright's storageState({credentials: true}): WebAuthn, not kept here
			if !emptyArray(raw) {
				return State{}, fmt.Errorf("%w: it holds WebAuthn credentials, which a world does not keep; export it without credentials", ErrNotStorageState)
			}
		default:
			return State{}, fmt.Errorf("%w: unknown field %q; expected %s", ErrNotStorageState, key, Expected)
		}
	}
	var st State
	for _, key := range []string{"cookies", "origins"} {
		if _, ok := top[key]; !ok {
			return State{}, fmt.Errorf("%w: no %q; expected %s", ErrNotStorageState, key, Expected)
		}
	}
	var cookies []map[string]json.RawMessage
	if err := strict(top["cookies"], &cookies); err != nil {
		return State{}, fmt.Errorf("%w: cookies: %v", ErrNotStorageState, err)
	}
	for i, raw := range cookies {
		c, err := parseCookie(raw)
		if err != nil {
			return State{}, fmt.Errorf("%w: cookie %d: %v", ErrNotStorageState, i, err)
		}
		st.Cookies = append(st.Cookies, c)
	}
	var origins []map[string]json.RawMessage
	if err := strict(top["origins"], &origins); err != nil {
		return State{}, fmt.Errorf("%w: origins: %v", ErrNotStorageState, err)
	}
	seen := map[string]bool{}
	for i, raw := range origins {
		o, err := parseOrigin(raw)
		if err != nil {
			return State{}, fmt.Errorf("%w: origin %d: %v", ErrNotStorageState, i, err)
		}
		if seen[o.Origin] {
			return State{}, fmt.Errorf("%w: origin %s is given twice", ErrNotStorageState, o.Origin)
		}
		seen[o.Origin] = true
		st.Origins = append(st.Origins, o)
	}
	if st.Cookies == nil {
		st.Cookies = []Cookie{}
	}
	if st.Origins == nil {
		st.Origins = []Origin{}
	}
	return st, nil
}

var cookieFields = map[string]bool{"name": true, "value": true, "domain": true, "path": true, "expires": true, "httpOnly": true, "secure": true, "sameSite": true}

func parseCookie(raw map[string]json.RawMessage) (Cookie, error) {
	if raw == nil {
		return Cookie{}, errors.New("not an object")
	}
	for key := range raw {
		if !cookieFields[key] && key != "partitionKey" && key != "_crHasCrossSiteAncestor" {
			return Cookie{}, fmt.Errorf("unknown field %q", key)
		}
	}
	for key := range cookieFields {
		if _, ok := raw[key]; !ok {
			return Cookie{}, fmt.Errorf("no %q", key)
		}
	}
	var c Cookie
	fields := []struct {
		key string
		to  any
	}{{"name", &c.Name}, {"value", &c.Value}, {"domain", &c.Domain}, {"path", &c.Path}, {"expires", &c.Expires},
		{"httpOnly", &c.HTTPOnly}, {"secure", &c.Secure}, {"sameSite", &c.SameSite}}
	for _, f := range fields {
		if err := strict(raw[f.key], f.to); err != nil {
			return Cookie{}, fmt.Errorf("%s: %v", f.key, err)
		}
	}
	if v, ok := raw["partitionKey"]; ok {
		if err := strict(v, &c.PartitionKey); err != nil {
			return Cookie{}, fmt.Errorf("partitionKey: %v", err)
		}
	}
	if v, ok := raw["_crHasCrossSiteAncestor"]; ok {
		var b bool
		if err := strict(v, &b); err != nil {
			return Cookie{}, fmt.Errorf("_crHasCrossSiteAncestor: %v", err)
		}
		c.CrossSiteAncestor = &b
	}
	switch {
	case c.Domain == "" || strings.ContainsAny(c.Domain, "/ "):
		return Cookie{}, fmt.Errorf("domain %q is not a host", c.Domain)
	case !strings.HasPrefix(c.Path, "/"):
		return Cookie{}, fmt.Errorf("path %q does not start with /", c.Path)
	case math.IsNaN(c.Expires) || (c.Expires < 0 && c.Expires != -1):
		return Cookie{}, fmt.Errorf("expires %v is neither -1 (a session cookie) nor seconds since 1970", c.Expires)
	}
	switch c.SameSite {
	case "Strict", "Lax":
	case "None":
		if !c.Secure {
			return Cookie{}, errors.New("sameSite None without secure: Chromium refuses such a cookie")
		}
	default:
		return Cookie{}, fmt.Errorf("sameSite %q is not Strict, Lax or None", c.SameSite)
	}
	return c, nil
}

func parseOrigin(raw map[string]json.RawMessage) (Origin, error) {
	if raw == nil {
		return Origin{}, errors.New("not an object")
	}
	var o Origin
	for key, v := range raw {
		switch key {
		case "origin":
			if err := strict(v, &o.Origin); err != nil {
				return Origin{}, fmt.Errorf("origin: %v", err)
			}
		case "localStorage":
			var items []map[string]json.RawMessage
			if err := strict(v, &items); err != nil {
				return Origin{}, fmt.Errorf("localStorage: %v", err)
			}
			for j, it := range items {
				item, err := parseItem(it)
				if err != nil {
					return Origin{}, fmt.Errorf("localStorage %d: %v", j, err)
				}
				o.LocalStorage = append(o.LocalStorage, item)
			}
		case "indexedDB", "opfs": // Playwright's storageState({indexedDB: true}) and later
			if !emptyArray(v) {
				return Origin{}, fmt.Errorf("it holds %s data, which a world does not keep (see docs/worlds.md); export it without", key)
			}
		default:
			return Origin{}, fmt.Errorf("unknown field %q", key)
		}
	}
	if _, ok := raw["localStorage"]; !ok {
		return Origin{}, errors.New(`no "localStorage"`)
	}
	canonical, err := CanonicalOrigin(o.Origin)
	if err != nil {
		return Origin{}, err
	}
	if canonical != o.Origin {
		return Origin{}, fmt.Errorf("origin %q is not in origin form (%s)", o.Origin, canonical)
	}
	if o.LocalStorage == nil {
		o.LocalStorage = []Item{}
	}
	return o, nil
}

func parseItem(raw map[string]json.RawMessage) (Item, error) {
	if raw == nil {
		return Item{}, errors.New("not an object")
	}
	var it Item
	if len(raw) != 2 || raw["name"] == nil || raw["value"] == nil {
		return Item{}, errors.New(`expected {"name","value"}`)
	}
	if err := strict(raw["name"], &it.Name); err != nil {
		return Item{}, fmt.Errorf("name: %v", err)
	}
	if err := strict(raw["value"], &it.Value); err != nil {
		return Item{}, fmt.Errorf("value: %v", err)
	}
	return it, nil
}

// CanonicalOrigin is an http(s) origin as a browser serializes it
// (scheme://host[:port], no default port, no path); an error for anything
// else.
func CanonicalOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q is not an http or https origin (scheme://host[:port])", s)
	}
	host := strings.ToLower(u.Host)
	if p := u.Port(); (u.Scheme == "http" && p == "80") || (u.Scheme == "https" && p == "443") {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return u.Scheme + "://" + host, nil
}

// strict decodes raw into v, refusing null and fields v does not have.
func strict(raw json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return errors.New("null")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	return nil
}

func emptyArray(raw json.RawMessage) bool {
	var a []json.RawMessage
	return json.Unmarshal(raw, &a) == nil && len(a) == 0
}

func orNull(err error) any {
	if err == nil {
		return "null"
	}
	return err
}
