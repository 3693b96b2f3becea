package recorder

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
)

// A download is kept once, whoever told it: the recorded page's own
// events alone (a client set its own download behaviour, so the
// downloads feature does not track it), or those and the downloads
// feature's hook; its URL and name are its beginning's.
func TestDownloadKeptOnceFromPageOrHook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	st, err := store.Open(store.Spec{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := newRun(context.Background(), &Actor{spec: Spec{All: true}}, st)
	p := &page{id: "P", world: "w", requests: map[string]*pendingRequest{}}
	fromPage := func(raw string) {
		t.Helper()
		m, ok := readSession(1, []byte(raw))
		n, isPage := m.(pageNews)
		if !ok || !isPage || n.kind != kindDownload {
			t.Fatalf("%s: %#v %v", raw, m, ok)
		}
		r.pageNews(p, n)
	}
	hook := func(e downloads.Entry) {
		e.Context = "w"
		r.note(note{world: "w", kind: kindDownload, at: time.Now(), v: e})
	}

	// The page's alone.
	fromPage(`{"method":"Page.downloadWillBegin","sessionId":"S","params":{"frameId":"F","guid":"G1","url":"http://127.0.0.1:1/a.txt","suggestedFilename":"a.txt"}}`)
	fromPage(`{"method":"Page.downloadProgress","sessionId":"S","params":{"guid":"G1","totalBytes":3,"receivedBytes":3,"state":"completed"}}`)
	// Both: the hook's news of it comes after, and is not kept again.
	fromPage(`{"method":"Page.downloadWillBegin","sessionId":"S","params":{"frameId":"F","guid":"G2","url":"http://127.0.0.1:1/b.txt","suggestedFilename":"b.txt"}}`)
	hook(downloads.Entry{ID: "G2", URL: "http://127.0.0.1:1/b.txt", Filename: "b.txt", State: downloads.InProgress})
	fromPage(`{"method":"Page.downloadProgress","sessionId":"S","params":{"guid":"G2","state":"canceled"}}`)
	hook(downloads.Entry{ID: "G2", URL: "http://127.0.0.1:1/b.txt", Filename: "b.txt", State: downloads.Canceled})
	// A progress that is not an end is no news.
	if _, ok := readSession(1, []byte(`{"method":"Page.downloadProgress","sessionId":"S","params":{"guid":"G3","state":"inProgress"}}`)); ok {
		t.Error("an inProgress progress was read as news")
	}

	if err := st.Flush("w"); err != nil {
		t.Fatal(err)
	}
	var got []pwtrace.Download
	err = store.Read(dir, "w", time.Time{}, func(rec store.Record) error {
		if rec.Kind == kindDownload {
			var d pwtrace.Download
			if err := json.Unmarshal(rec.Meta, &d); err != nil {
				return err
			}
			got = append(got, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].FileName != "a.txt" || got[0].URL != "http://127.0.0.1:1/a.txt" ||
		got[1].FileName != "b.txt (canceled)" || got[1].URL != "http://127.0.0.1:1/b.txt" || got[0].End.Before(got[0].Start) {
		t.Fatalf("downloads kept: %+v", got)
	}
}
