module github.com/cdpvisor/cdpvisor

go 1.25.5

require (
	github.com/gorilla/websocket v1.5.3
	github.com/looplab/fsm v1.0.3
	github.com/rs/zerolog v1.35.1
	github.com/thejerf/suture/v4 v4.0.6
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
