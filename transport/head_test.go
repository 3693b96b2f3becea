package transport

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanHead(t *testing.T) {
	cases := []struct {
		msg     string
		id      int64
		hasID   bool
		method  string
		session string
	}{
		{`{"id":1,"method":"Browser.getVersion"}`, 1, true, "Browser.getVersion", ""},
		{`{"method":"Runtime.evaluate","params":{"id":5,"method":"x"},"sessionId":"AB","id":-9999}`, -9999, true, "Runtime.evaluate", "AB"},
		{" {\n\t\"sessionId\" : \"S\" , \"id\" : 0 ,\"method\":\"M\"}", 0, true, "M", "S"},
		{`{"\u0069d":7,"met\u0068od":"A\"B","sessionId":"\u0041"}`, 7, true, `A"B`, "A"},
		{`{"params":{"s":"}{][\"","a":[1,{"id":3}]},"method":"Target.attachedToTarget"}`, 0, false, "Target.attachedToTarget", ""},
		{`{"id":1.5,"method":3}`, 0, false, "", ""},
		{`{"id":"1"}`, 0, false, "", ""},
		{`{"id":9223372036854775807}`, math.MaxInt64, true, "", ""},
		{`{"id":-9223372036854775808}`, math.MinInt64, true, "", ""},
		{`{"id":9223372036854775808}`, 0, false, "", ""},
		{`{"id":1,"id":2}`, 2, true, "", ""},
		{`{}`, 0, false, "", ""},
	}
	for _, c := range cases {
		h, err := ScanHead([]byte(c.msg))
		if err != nil {
			t.Errorf("%s: %v", c.msg, err)
			continue
		}
		if h.ID != c.id || h.HasID != c.hasID || string(h.Method) != c.method || string(h.SessionID) != c.session {
			t.Errorf("%s: got id %d/%v method %q session %q", c.msg, h.ID, h.HasID, h.Method, h.SessionID)
		}
	}
}

func TestScanHeadRejectsNonObjects(t *testing.T) {
	for _, msg := range []string{``, `[]`, `"x"`, `{"id":1`, `{"id" 1}`, `{"id":1,}`, `{"a":"unterminated}`, `{"a":{"b":1}`} {
		if _, err := ScanHead([]byte(msg)); err == nil {
			t.Errorf("%q accepted", msg)
		}
	}
}

func TestWithIDRewritesOnlyTheID(t *testing.T) {
	msg := []byte(`{"method":"Target.setAutoAttach", "id" : 12 ,"params":{"id":12}}`)
	h, _ := ScanHead(msg)
	got := h.WithID(nil, msg, -2000000001)
	want := `{"method":"Target.setAutoAttach", "id" : -2000000001 ,"params":{"id":12}}`
	if string(got) != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// oracle decodes msg with encoding/json into what ScanHead should find.
func oracle(msg []byte) (id int64, hasID bool, method, session string, ok bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil || top == nil {
		return 0, false, "", "", false
	}
	if raw, found := top["id"]; found {
		var n int64
		s := string(raw)
		if s != "null" && !strings.ContainsAny(s, ".eE") && json.Unmarshal(raw, &n) == nil {
			id, hasID = n, true
		}
	}
	_ = json.Unmarshal(top["method"], &method)
	_ = json.Unmarshal(top["sessionId"], &session)
	return id, hasID, method, session, true
}

func FuzzScanHead(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"method":"Browser.getVersion"}`,
		`{"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"ABCDEF","id":-9999}`,
		`{"method":"Inspector.detached","params":{"reason":"Render process gone."}}`,
		`{"id":3,"result":{"targetInfos":[{"targetId":"X","type":"page"}]},"sessionId":"S"}`,
		`{"\u0069d":7,"met\u0068od":"A\"B"}`,
		`{"id":1,"id":2,"method":null}`,
		` { "a" : [ { "id" : 1 } , "\\" ] , "id" : 2 } `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		h, err := ScanHead(msg)
		id, hasID, method, session, valid := oracle(msg)
		if !valid {
			return // invalid JSON: ScanHead may say anything, as long as it does not crash
		}
		if err != nil {
			t.Fatalf("valid message refused: %v: %q", err, msg)
		}
		if h.HasID != hasID || (hasID && h.ID != id) {
			t.Fatalf("id: got %d/%v, oracle %d/%v: %q", h.ID, h.HasID, id, hasID, msg)
		}
		// encoding/json replaces invalid UTF-8; compare only where it is valid.
		if utf8.Valid(msg) && (string(h.Method) != method || string(h.SessionID) != session) {
			t.Fatalf("method/session: got %q/%q, oracle %q/%q: %q", h.Method, h.SessionID, method, session, msg)
		}
		if h.HasID {
			re := h.WithID(nil, msg, 42)
			h2, err := ScanHead(re)
			if err != nil || !h2.HasID || h2.ID != 42 || !bytes.Equal(h2.Method, h.Method) {
				t.Fatalf("rewrite broke the message: %q -> %q", msg, re)
			}
		}
	})
}

func BenchmarkScanHead(b *testing.B) {
	for _, size := range []int{200, 64 << 10, 10 << 20} {
		msg := []byte(`{"id":17,"result":{"data":"` + strings.Repeat("A", size) + `"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if h, err := ScanHead(msg); err != nil || h.ID != 17 {
					b.Fatal(err)
				}
			}
		})
	}
}

// Cut anywhere, a message's prefix yields the members that end before the
// cut, as the whole message has them, and says it is incomplete.
func FuzzScanHeadPrefix(f *testing.F) {
	f.Add([]byte(`{"id":17,"result":{"data":"AAAA"},"sessionId":"S"}`), uint16(9))
	f.Add([]byte(`{"method":"Page.screencastFrame","params":{"data":"xx"},"sessionId":"S"}`), uint16(30))
	f.Fuzz(func(t *testing.T, msg []byte, cut uint16) {
		whole, err := ScanHead(msg)
		if err != nil {
			return
		}
		k := int(cut) % (len(msg) + 1)
		h, complete := ScanHeadPrefix(msg[:k])
		if k == len(msg) {
			if !complete {
				t.Fatal("the whole message counts as incomplete")
			}
			return
		}
		if complete {
			return // the prefix is itself a whole object (what follows is trailing)
		}
		if h.HasID && (!whole.HasID || h.ID != whole.ID) && !bytes.Contains(msg[k:], []byte(`"id"`)) {
			t.Fatalf("prefix id %d, whole %d/%v: %q | %q", h.ID, whole.ID, whole.HasID, msg[:k], msg[k:])
		}
		if len(h.Method) > 0 && string(h.Method) != string(whole.Method) && !bytes.Contains(msg[k:], []byte(`"method"`)) {
			t.Fatalf("prefix method %q, whole %q", h.Method, whole.Method)
		}
	})
}
