package journal

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendEntry appends e as one JSON object, as encoding/json would write
// it (the same names, omitempty alike), without its reflection: the
// journal writes one per command a world's clients send.
func appendEntry(b []byte, e *Entry) []byte {
	b = append(b, `{"time":"`...)
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = appendField(b, "world", e.World, false)
	if e.Client != nil {
		b = append(b, `,"client":{"id":`...)
		b = strconv.AppendInt(b, e.Client.ID, 10)
		b = appendField(b, "command", e.Client.Command, true)
		b = append(b, '}')
	}
	b = appendField(b, "kind", string(e.Kind), false)
	b = appendField(b, "method", e.Method, true)
	b = appendField(b, "target", e.Target, true)
	b = appendField(b, "url", e.URL, true)
	b = appendField(b, "answer", e.Answer, true)
	b = appendField(b, "error", e.Error, true)
	b = appendField(b, "host", e.Host, true)
	b = appendCount(b, "reached", e.Reached)
	b = appendCount(b, "denied", e.Denied)
	b = appendCount(b, "dropped", e.Dropped)
	b = appendField(b, "note", e.Note, true)
	return append(b, '}')
}

func appendField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendCount(b []byte, name string, n int64) []byte {
	if n == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, n, 10)
}

// appendString quotes s as JSON: plain ASCII as it is, anything else
// through encoding/json (which escapes <, >, & and control characters, and
// replaces invalid UTF-8).
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
