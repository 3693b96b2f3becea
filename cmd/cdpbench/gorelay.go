package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/gorilla/websocket"
)

// goRelayCommand is the hidden mode `cdpbench gorelay WS`: the minimal Go
// relay of the round-trip comparison, in its own process like cdpvisor and
// the Node relay. One goroutine per direction, each writing straight to the
// other socket; nothing else. It prints {"port":N} once it listens and
// exits when its stdin closes.
const goRelayCommand = "gorelay"

func runGoRelay(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: cdpbench %s <upstream ws url>", goRelayCommand)
	}
	upstream := args[0]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	up := websocket.Upgrader{ReadBufferSize: 32 << 10, WriteBufferSize: 32 << 10, CheckOrigin: func(*http.Request) bool { return true }}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		browser, _, err := cdpDialer.Dial(upstream, nil)
		if err != nil {
			client.Close()
			return
		}
		client.SetReadLimit(readLimit)
		browser.SetReadLimit(readLimit)
		go pass(browser, client)
		pass(client, browser)
	})}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Printf("{\"port\":%d}\n", ln.Addr().(*net.TCPAddr).Port)
	return srv.Serve(ln)
}

// pass copies every message from src to dst until either fails, then
// closes both.
func pass(src, dst *websocket.Conn) {
	defer dst.Close()
	defer src.Close()
	for {
		kind, msg, err := src.ReadMessage()
		if err != nil {
			return
		}
		if err := dst.WriteMessage(kind, msg); err != nil {
			return
		}
	}
}
