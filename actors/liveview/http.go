package liveview

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// The page, its script and its style, embedded: no CDN, works offline.
//
//go:embed ui
var assets embed.FS

// The live view's paths under Path.
const (
	socketPath  = Path + "/ws"
	RequestPath = Path + "/request-human" // POST: the HTTP form of request_human
)

// securityHeaders are on every answer: nothing but the page's own assets
// loads, and no other page can frame it.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // a ?token= stays on this page
	h.Set("Cache-Control", "no-store")
}

// ownOrigin says whether a request's Origin is the endpoint's own (the
// page it served): absent (not a browser's request) or the same host.
func ownOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || strings.EqualFold(origin, "http://"+r.Host) || strings.EqualFold(origin, "https://"+r.Host)
}

// Mount is the live view on the endpoint: Path and below, its static
// files without the token.
func (a *Actor) Mount() proxy.Mount {
	return proxy.Mount{Path: Path, Under: true, Public: PublicAsset, Handler: a.Handler()}
}

// Handler serves the live view under Path. The endpoint that mounts it has
// checked who asks (the owner's peer check, the token, the Host); it
// refuses, on top, every state-changing request and websocket whose Origin
// is not the endpoint's own.
func (a *Actor) Handler() http.Handler {
	files, err := fs.Sub(assets, "ui")
	if err != nil {
		panic(err) // embedded at build time
	}
	static := http.StripPrefix(Path+"/", http.FileServerFS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header())
		switch r.URL.Path {
		case Path, Path + "/":
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				http.Error(w, "cdpvisor: the live view is GET only", http.StatusMethodNotAllowed)
				return
			}
			page, _ := assets.ReadFile("ui/index.html")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(page)
		case socketPath:
			a.serveViewer(w, r)
		case RequestPath:
			a.serveRequest(w, r)
		default:
			if r.Method != http.MethodGet {
				http.Error(w, "cdpvisor: GET only", http.StatusMethodNotAllowed)
				return
			}
			static.ServeHTTP(w, r)
		}
	})
}

func refuseOrigin(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "cdpvisor: refused: the Origin "+r.Header.Get("Origin")+" is not this endpoint's own; only the live view's own page may drive it", http.StatusForbidden)
}

// serveViewer runs one page's websocket: what it says goes to the actor,
// what the actor queues for it is written by its writer.
func (a *Actor) serveViewer(w http.ResponseWriter, r *http.Request) {
	if !ownOrigin(r) {
		refuseOrigin(w, r)
		return
	}
	up := websocket.Upgrader{CheckOrigin: ownOrigin}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	conn.SetReadLimit(1 << 20)
	v := newViewer(a.viewerIDs.Add(1), conn)
	if actor.Send(r.Context(), a.mailbox, request(viewerJoined{v: v})) != nil {
		_ = conn.Close()
		return
	}
	written := make(chan struct{})
	go func() { defer close(written); v.write() }()
	for {
		var c command
		if err := conn.ReadJSON(&c); err != nil {
			break
		}
		if actor.Send(r.Context(), a.mailbox, request(fromViewer{v: v, cmd: c})) != nil {
			break
		}
	}
	_ = conn.Close()
	close(v.gone)
	<-written
	lctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
	defer cancel()
	_ = actor.Send(lctx, a.mailbox, request(viewerLeft{v: v}))
}

// humanRequestBody is the HTTP form of request_human.
type humanRequestBody struct {
	Reason   string   `json:"reason"`
	Context  string   `json:"context"`
	TimeoutS *float64 `json:"timeout_s"`
}

// DefaultHumanWait and MaxHumanWait bound request_human's timeout_s.
const (
	DefaultHumanWait = 300 * time.Second
	MaxHumanWait     = 3600 * time.Second
)

// serveRequest is POST /ui/request-human {reason, context?, timeout_s?}:
// it answers the human's answer as JSON once they press Done, or 504 when
// nobody did in time.
func (a *Actor) serveRequest(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "cdpvisor: POST a JSON body {reason, context?, timeout_s?}", http.StatusMethodNotAllowed)
		return
	}
	if !ownOrigin(r) {
		refuseOrigin(w, r)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		// A form from another page cannot send JSON without asking first.
		http.Error(w, "cdpvisor: send Content-Type: application/json", http.StatusUnsupportedMediaType)
		return
	}
	var body humanRequestBody
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		http.Error(w, "cdpvisor: unreadable request: "+err.Error(), http.StatusBadRequest)
		return
	}
	req, wait, err := CheckHumanRequest(body.Reason, body.Context, body.TimeoutS)
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	ans, err := a.RequestHuman(ctx, req)
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		code := http.StatusGatewayTimeout
		if !errors.Is(err, ErrNoHuman) {
			code = http.StatusServiceUnavailable
		}
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": NoHumanWords(wait)})
		return
	}
	_ = json.NewEncoder(w).Encode(ans)
}

// CheckHumanRequest reads request_human's arguments as both its forms take
// them: a reason, a world's name or "" and a timeout in seconds (nil: the
// default).
func CheckHumanRequest(reason, world string, timeoutS *float64) (HumanRequest, time.Duration, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return HumanRequest{}, 0, errors.New(`"reason" is empty: say what the human should do (log in, solve the CAPTCHA, …)`)
	}
	world = strings.TrimSpace(world)
	if world != "" {
		if err := worlds.CheckName(world); err != nil {
			return HumanRequest{}, 0, errors.New(`"context": ` + err.Error())
		}
	}
	wait := DefaultHumanWait
	if timeoutS != nil {
		wait = time.Duration(*timeoutS * float64(time.Second))
		if *timeoutS <= 0 || wait > MaxHumanWait {
			return HumanRequest{}, 0, errors.New(`"timeout_s" is out of range: more than 0 and at most 3600 seconds, or leave it out for 300`)
		}
	}
	return HumanRequest{World: world, Reason: reason}, wait, nil
}

// NoHumanWords is what an agent is told when nobody answered.
func NoHumanWords(wait time.Duration) string {
	return "no human answered within " + wait.Round(time.Second).String() + "; the page is as it was (nobody took it over for you). Go on without a human, or ask again later"
}

// PublicAsset says a path is one of the page's static files (its script
// and style), which carry nothing secret: an endpoint with a token serves
// them without it, as the page asks for them by a URL without the token.
func PublicAsset(path string) bool {
	name, ok := strings.CutPrefix(path, Path+"/")
	if !ok || name == "" || name == "index.html" || strings.Contains(name, "/") {
		return false
	}
	_, err := fs.Stat(assets, "ui/"+name)
	return err == nil
}
