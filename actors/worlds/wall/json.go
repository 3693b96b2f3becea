package wall

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/transport"
)

// The few messages the wall reads whole are small (requests naming a
// target or a context, target events, target and context lists): they are
// decoded with encoding/json; nothing else is.

// names are the parameters the wall looks at in a request.
type names struct {
	TargetID         *string
	BrowserContextID *string
}

// readParams reads them as Chromium does: keys matched exactly, the
// last of duplicates winning. encoding/json's struct decoding also takes
// "TargetId" or "Params" for them, which Chromium ignores: a request could
// show the wall one context or target and the browser another.
func readParams(msg []byte) (names, error) {
	var p names
	params, err := readParamMap(msg)
	if err != nil {
		return p, err
	}
	if p.TargetID, err = stringParam(params, "targetId"); err != nil {
		return p, err
	}
	p.BrowserContextID, err = stringParam(params, "browserContextId")
	return p, err
}

// readParamMap reads a request's params as Chromium does: keys matched
// exactly, the last of duplicates winning.
func readParamMap(msg []byte) (map[string]json.RawMessage, error) {
	_, params, err := readRequest(msg)
	return params, err
}

// readRequest reads a request's members and its params ({} when it has
// none).
func readRequest(msg []byte) (top, params map[string]json.RawMessage, err error) {
	if err := json.Unmarshal(msg, &top); err != nil {
		return nil, nil, err
	}
	params = map[string]json.RawMessage{}
	if raw, ok := top["params"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &params); err != nil {
			return nil, nil, err
		}
	}
	return top, params, nil
}

// stringParam is params[key] as a string, nil when absent or null.
func stringParam(params map[string]json.RawMessage, key string) (*string, error) {
	raw, ok := params[key]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("params.%s: %w", key, err)
	}
	return &s, nil
}

// withContext returns msg with params.browserContextId set to context; the
// rest of the message is kept (its members re-encoded, the id as it came).
func withContext(msg []byte, context string) ([]byte, error) {
	return withParam(msg, "browserContextId", context)
}

// withParam returns msg with params[key] set to value (a string).
func withParam(msg []byte, key, value string) ([]byte, error) {
	top, params, err := readRequest(msg)
	if err != nil {
		return nil, err
	}
	v, _ := json.Marshal(value)
	params[key] = v
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	top["params"] = p
	return json.Marshal(top)
}

// errorAnswer is an error answer to request id, as Chromium words it.
func errorAnswer(id int64, session []byte, code int, message string) []byte {
	text, _ := json.Marshal(message)
	return transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"error":{"code":%d,"message":%s}`, id, code, text), session)
}

// Chromium's errors for what does not exist, which is what the rest of the
// browser is to a world's client (measured: Chromium 148).
const (
	codeInvalidParams = -32602
	codeServerError   = -32000
	errNoTarget       = "No target with given id found"
)

// noContext is Chromium's error for a context it does not know, which
// depends on the method.
func noContext(r rule, id string) (int, string) {
	switch r {
	case createsTarget:
		return codeServerError, "Failed to find browser context with id " + id
	case disposesContext:
		return codeServerError, "Failed to find context with id " + id
	}
	return codeInvalidParams, "Failed to find browser context for id " + id
}

// resultAnswer is a successful answer to request id with result (JSON).
func resultAnswer(id int64, session []byte, result []byte) []byte {
	b := fmt.Appendf(nil, `{"id":%d,"result":`, id)
	b = append(b, result...)
	return transport.AppendSession(b, session)
}

// jsonString is s as a JSON string.
func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
