package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// soakSite is the local site the soak agents work on: a page with a field,
// a button that titles the page with the field's value, and a link to a
// file served as a download.
type soakSite struct {
	srv  *http.Server
	base string // http://127.0.0.1:PORT
}

const soakPageHTML = `<!doctype html><title>soak</title>
<input id=q autofocus><button id=b onclick="document.title='clicked '+document.getElementById('q').value">go</button>
<a id=dl href="/file?%s" download>file</a><p>%s</p>`

// soakFileSize keeps a download real (written to disk) but cheap.
const soakFileSize = 32 << 10

func startSoakSite() (*soakSite, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("soak site: %w", err)
	}
	file := []byte(strings.Repeat("soak file line\n", soakFileSize/15))
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		q := r.URL.Query().Encode()
		fmt.Fprintf(w, soakPageHTML, q, q)
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="soak.txt"`)
		_, _ = w.Write(file)
	})
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { // owned: ends with close
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			progress("soak site: %v", err)
		}
	}()
	return &soakSite{srv: srv, base: "http://" + ln.Addr().String()}, nil
}

func (s *soakSite) close() { _ = s.srv.Close() }
