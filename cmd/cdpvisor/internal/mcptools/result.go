package mcptools

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// result is data for the model: structured content, a readable text, and
// the same data as JSON text for clients that ignore structured content.
// Every tool answers so; data is always an object (a list is wrapped:
// {"instances": [...]}). The answer types list their fields in the order
// of their JSON names, as the maps they replaced marshalled, so the JSON
// text stays what it was.
func result(data any, text string) (*mcp.CallToolResult, error) {
	res := mcp.NewToolResultStructured(data, text)
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	res.Content = append(res.Content, mcp.NewTextContent(string(raw)))
	return res, nil
}
