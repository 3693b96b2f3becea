package worlds

import "encoding/json"

// What Storage.getCookies answers but Storage.setCookies does not take
// (Cookie's read-only fields, not CookieParam's).
var readOnlyCookieFields = []string{"size", "session", "partitionKeyOpaque"}

// restorable turns a snapshot (Storage.getCookies' cookies) into
// Storage.setCookies' cookies: read-only fields dropped, and a session
// cookie's expires (-1) dropped, so it is set as a session cookie again
// rather than as one that expired in 1970. Other fields pass as read:
// CookieParam names them the same. Cookies that are not objects are
// dropped.
func restorable(snapshot json.RawMessage) []map[string]json.RawMessage {
	var cookies []map[string]json.RawMessage
	if json.Unmarshal(snapshot, &cookies) != nil {
		return nil
	}
	out := cookies[:0]
	for _, c := range cookies {
		if c == nil {
			continue
		}
		if string(c["session"]) == "true" {
			delete(c, "expires")
		}
		for _, f := range readOnlyCookieFields {
			delete(c, f)
		}
		out = append(out, c)
	}
	return out
}

// cookieCount is how many cookies a snapshot holds, for the logs.
func cookieCount(snapshot json.RawMessage) int {
	var cookies []json.RawMessage
	_ = json.Unmarshal(snapshot, &cookies)
	return len(cookies)
}
