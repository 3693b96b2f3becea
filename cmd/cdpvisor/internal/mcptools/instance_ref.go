package mcptools

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// refWant is what an instance reference wants, in words.
const refWant = `an instance id such as "inst_…" or an endpoint port such as 9222 (a string or a number)`

// refSchema is an instance reference: an id or an endpoint port, a string
// or a number.
func refSchema(description string) map[string]any {
	return map[string]any{"type": []string{"string", "integer"}, "description": description}
}

// instanceParam is the lifecycle and download tools' choice of instance.
var instanceParam = param{name: "instance", want: refWant, schema: refSchema(
	`Which instance: its id ("inst_…") or its endpoint port, as a string or a number (e.g. "inst_…", 9222 or "9222"). ` +
		"Leave out for the default instance.")}

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
