package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// toolDef is one MCP tool as its callers see it: title, annotations and
// the input schema, written out by hand (additionalProperties false, every
// property described) rather than built by mcp.NewTool, whose defaults
// (destructiveHint and openWorldHint true) are wrong for these tools.
type toolDef struct {
	name, title, description string
	params                   []param
	required                 []string
	readOnly                 bool // it changes nothing
	destructive              bool // it may end something: a browser, an instance
	idempotent               bool // calling it again with the same arguments does nothing more
}

// param is one argument: its JSON Schema, description included, and what
// it wants in words, for the error naming a wrong type.
type param struct {
	name   string
	want   string
	schema map[string]any
}

// refWant is what an instance reference wants, in words.
const refWant = `an instance id such as "inst_…" or an endpoint port such as 9222 (a string or a number)`

// refSchema is an instance reference: an id or an endpoint port, a string
// or a number.
func refSchema(description string) map[string]any {
	return map[string]any{"type": []string{"string", "integer"}, "description": description}
}

func (d toolDef) tool() mcp.Tool {
	return mcp.Tool{
		Name: d.name, Title: d.title, Description: d.description,
		RawInputSchema: d.inputSchema(),
		Annotations: mcp.ToolAnnotation{
			Title:           d.title,
			ReadOnlyHint:    mcp.ToBoolPtr(d.readOnly),
			DestructiveHint: mcp.ToBoolPtr(d.destructive),
			IdempotentHint:  mcp.ToBoolPtr(d.idempotent),
			OpenWorldHint:   mcp.ToBoolPtr(false), // only this machine's browsers
		},
	}
}

// inputSchema is the JSON Schema of the arguments, properties in the
// order of params.
func (d toolDef) inputSchema() json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range d.params {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.name)
		v, err := json.Marshal(p.schema)
		if err != nil {
			panic(fmt.Sprintf("tool %s: schema of %s: %v", d.name, p.name, err))
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	if len(d.required) > 0 {
		r, _ := json.Marshal(d.required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

func (d toolDef) param(name string) (param, bool) {
	i := slices.IndexFunc(d.params, func(p param) bool { return p.name == name })
	if i < 0 {
		return param{}, false
	}
	return d.params[i], true
}

// accepted names the arguments in words: "a, b and c".
func (d toolDef) accepted() string {
	names := make([]string, len(d.params))
	for i, p := range d.params {
		names[i] = p.name
	}
	return joinAnd(names)
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// bind decodes a call's arguments into v, a struct whose json tags are the
// tool's parameters, and returns the arguments given. Every tool goes
// through it: an unknown key is refused, naming the accepted ones; a null
// is as if the key were left out (clients in strict modes send every key);
// a wrong type says what the argument wants.
func bind(req mcp.CallToolRequest, v any) (map[string]bool, error) {
	d, ok := toolDefByName(req.Params.Name)
	if !ok {
		return nil, fmt.Errorf("no tool %q", req.Params.Name)
	}
	var args map[string]json.RawMessage
	if raw := bytes.TrimSpace(rawArguments(req)); len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			if len(d.params) == 0 {
				return nil, errors.New("the arguments must be an object; this tool takes no arguments: pass {}")
			}
			return nil, fmt.Errorf("the arguments must be an object of %s", d.accepted())
		}
	}
	var unknown []string
	given := map[string]bool{}
	for k, val := range args {
		switch _, known := d.param(k); {
		case !known:
			unknown = append(unknown, k)
		case string(bytes.TrimSpace(val)) == "null":
			delete(args, k)
		default:
			given[k] = true
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
			return nil, fmt.Errorf("%s: %s takes no arguments; pass {}", what, d.name)
		}
		return nil, fmt.Errorf("%s; the accepted arguments are %s", what, d.accepted())
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
			return nil, fmt.Errorf("argument %q must be %s, not %s", name, p.want, jsonKind(te.Value))
		}
		return nil, fmt.Errorf("unreadable arguments: %v", err)
	}
	return given, nil
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

// instanceRef reads an instance reference, an id or an endpoint port given
// as a string or a number, as the coordinator looks it up: "" (left out)
// is the default instance.
func instanceRef(name string, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(x), nil
	case json.Number:
		f, err := x.Float64()
		if err != nil || f != math.Trunc(f) || f < 1 || f > 65535 {
			return "", fmt.Errorf("argument %q: %s is not a port; want %s", name, x, refWant)
		}
		return strconv.Itoa(int(f)), nil
	case bool:
		return "", fmt.Errorf("argument %q must be %s, not a boolean", name, refWant)
	case []any:
		return "", fmt.Errorf("argument %q must be %s, not an array", name, refWant)
	}
	return "", fmt.Errorf("argument %q must be %s, not an object", name, refWant)
}
