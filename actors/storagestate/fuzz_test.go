package storagestate

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzParse: whatever a file holds, Parse answers a state or an error,
// and a state it answers is read again the same.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("testdata/playwright-1.65.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"cookies":[],"origins":[]}`))
	f.Add([]byte(`{"cookies":[{"name":"a","value":"b","domain":".x","path":"/","expires":1e300,"httpOnly":true,"secure":true,"sameSite":"None","partitionKey":"https://t"}],"origins":[{"origin":"http://[::1]:1","localStorage":[{"name":"","value":""}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Parse(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(st)
		if err != nil {
			t.Fatalf("a parsed state does not marshal: %v", err)
		}
		if _, err := Parse(again); err != nil {
			t.Fatalf("a parsed state, written, is refused: %v\n%s", err, again)
		}
	})
}
