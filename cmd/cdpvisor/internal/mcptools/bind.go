package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// bind decodes a call's arguments into v, a struct whose json tags are the
// tool's parameters. Every tool goes through it (serverTool): an unknown
// key is refused, naming the accepted ones; a null is as if the key were
// left out (clients in strict modes send every key); a wrong type says
// what the argument wants. mcp-go's own binding (mcp.NewTypedToolHandler)
// does none of this, so it is not used.
func (d toolDef) bind(req mcp.CallToolRequest, v any) error {
	var args map[string]json.RawMessage
	if raw := bytes.TrimSpace(rawArguments(req)); len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			if len(d.params) == 0 {
				return errors.New("the arguments must be an object; this tool takes no arguments: pass {}")
			}
			return fmt.Errorf("the arguments must be an object of %s", d.accepted())
		}
	}
	var unknown []string
	for k, val := range args {
		switch _, known := d.param(k); {
		case !known:
			unknown = append(unknown, k)
		case string(bytes.TrimSpace(val)) == "null":
			delete(args, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		quoted := make([]string, len(unknown))
		for i, k := range unknown {
			quoted[i] = strconv.Quote(k)
		}
		what := "unknown argument " + quoted[0]
		if len(unknown) > 1 {
			what = "unknown arguments " + joinAnd(quoted)
		}
		if len(d.params) == 0 {
			return fmt.Errorf("%s: %s takes no arguments; pass {}", what, d.name)
		}
		return fmt.Errorf("%s; the accepted arguments are %s", what, d.accepted())
	}
	known, _ := json.Marshal(args)
	dec := json.NewDecoder(bytes.NewReader(known))
	dec.UseNumber()
	dec.DisallowUnknownFields() // v declares every parameter: a missing one is a bug here
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			name, _, _ := strings.Cut(te.Field, ".")
			p, _ := d.param(name)
			return fmt.Errorf("argument %q must be %s, not %s", name, p.want, jsonKind(te.Value))
		}
		return fmt.Errorf("unreadable arguments: %w", err)
	}
	return nil
}

// rawArguments is the call's arguments as sent (numbers intact), or as
// the in-process client gave them.
func rawArguments(req mcp.CallToolRequest) []byte {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if raw, ok := req.Params.Arguments.(json.RawMessage); ok {
		return raw
	}
	b, _ := json.Marshal(req.Params.Arguments)
	return b
}

// jsonKind names the JSON value encoding/json describes as s ("bool",
// "number 1.5", …).
func jsonKind(s string) string {
	switch {
	case s == "bool":
		return "a boolean"
	case s == "array":
		return "an array"
	case s == "object":
		return "an object"
	case strings.HasPrefix(s, "number"):
		return "a number"
	case s == "string":
		return "a string"
	}
	return s
}
