package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// toolDef is one MCP tool as its callers see it: title, annotations and
// the input schema, written out by hand (additionalProperties false, every
// property described) rather than built by mcp.NewTool, whose defaults
// (destructiveHint and openWorldHint true) are wrong for these tools and
// whose schema would put its keys in another order, add an empty required
// list and cannot say "a string or an integer" (tools/list would change).
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
