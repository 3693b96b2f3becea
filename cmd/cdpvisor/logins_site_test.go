package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// loginSite is a local site to sign in to (issue 35), on loopback HTTPS
// (httptest's certificate: the browsers are told --ignore-certificate-errors,
// Playwright's own contexts ignoreHTTPSErrors). Signing in sets a session
// cookie (HttpOnly, Secure, with an expiry) and the page's script stores a
// token in localStorage; /whoami answers the server's check of the cookie
// and the page's own read of the token; /logout clears both.
type loginSite struct {
	URL string // https://HOST:PORT

	mu       sync.Mutex
	sessions map[string]string // session cookie value → user
	tokens   map[string]string // user → token
	cookies  map[string]string // user → session cookie value
}

// sessionCookie is the name of the site's session cookie.
const sessionCookie = "session"

// newLoginSite serves the site on 127.0.0.1; host names it in its URL
// (127.0.0.1 or localhost: two sites whose cookies do not mix, as
// cookies are kept by host, not port).
func newLoginSite(t *testing.T, host string) *loginSite {
	t.Helper()
	s := &loginSite{sessions: map[string]string{}, tokens: map[string]string{}, cookies: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/signin", func(w http.ResponseWriter, r *http.Request) {
		user := r.URL.Query().Get("user")
		sid, token := s.signIn(user)
		http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: sid, Path: "/", Expires: time.Now().Add(time.Hour),
			MaxAge: 3600, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
		page(w, "signed-in:"+user, fmt.Sprintf("localStorage.setItem('token', %q);", token))
	})
	mux.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
		who := "anonymous"
		if c, err := r.Cookie(sessionCookie); err == nil {
			s.mu.Lock()
			if user, ok := s.sessions[c.Value]; ok {
				who = "signed-in:" + user
			}
			s.mu.Unlock()
		}
		page(w, who, "")
	})
	mux.HandleFunc("/logout", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: true})
		page(w, "signed-out", "localStorage.removeItem('token');")
	})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Logf("%s %s %s (purpose %q, dest %q)", host, r.Method, r.URL, r.Header.Get("Sec-Purpose"), r.Header.Get("Sec-Fetch-Dest"))
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = strings.Replace(srv.URL, "127.0.0.1", host, 1)
	return s
}

// page writes a page whose #server says who the server saw and whose
// #token is the page's own read of localStorage, made by its script as
// the page is parsed (after script, if any, ran).
func page(w http.ResponseWriter, who, script string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `<!doctype html><title>shop</title><p id="server">%s</p><p id="token"></p>`+
		`<script>%s document.getElementById('token').textContent = localStorage.getItem('token') ?? 'none';</script>`,
		html.EscapeString(who), script)
}

func (s *loginSite) signIn(user string) (sid, token string) {
	sid, token = secret("sid-"), secret("tok-")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[sid], s.tokens[user], s.cookies[user] = user, token, sid
	return sid, token
}

// token and cookie are user's last sign-in's.
func (s *loginSite) token(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[user]
}

func (s *loginSite) cookie(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cookies[user]
}

// secrets are every cookie value and token the site gave, to look for in
// logs.
func (s *loginSite) secrets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for sid := range s.sessions {
		out = append(out, sid)
	}
	for _, tok := range s.tokens {
		out = append(out, tok)
	}
	return out
}

// whose says whose sign-in's cookie value or token secret is.
func (s *loginSite) whose(secret string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if user, ok := s.sessions[secret]; ok {
		return user + "'s cookie"
	}
	for user, tok := range s.tokens {
		if tok == secret {
			return user + "'s token"
		}
	}
	return "no sign-in's"
}

// describe says whose cookie values and tokens a profile file holds.
func (s *loginSite) describe(data []byte) string {
	var out []string
	for _, m := range secretPattern.FindAllString(string(data), -1) {
		out = append(out, s.whose(m))
	}
	return fmt.Sprintf("%v", out)
}

var secretPattern = regexp.MustCompile(`(sid|tok)-[0-9a-f]{32}`)

func secret(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// shown is what one step of logins.mjs saw on its page.
type shown struct {
	Step, Server, Token string
}

// signedIn is what a page of the site shows user signed in.
func (s *loginSite) signedIn(user string) shown {
	return shown{Server: "signed-in:" + user, Token: s.token(user)}
}

// anonymous is what a page shows with neither cookie nor token.
var anonymous = shown{Server: "anonymous", Token: "none"}

// same compares what a page showed, not which step it was.
func (x shown) same(y shown) bool { return x.Server == y.Server && x.Token == y.Token }

// logins runs logins.mjs to its end and answers what each step saw.
func logins(t *testing.T, browser string, steps ...string) []shown {
	t.Helper()
	out, err := actortest.NodeScript(t, 2*time.Minute, "logins.mjs", append([]string{browser}, steps...)...)
	var res struct {
		OK   bool
		Seen []shown
	}
	if err != nil || json.Unmarshal([]byte(lastLine(out)), &res) != nil || !res.OK {
		t.Fatalf("logins.mjs %s %v: %v: %q", browser, steps, err, out)
	}
	return res.Seen
}

// expectSeen fails unless each step saw what want says, in order.
func expectSeen(t *testing.T, what string, got []shown, want ...shown) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].same(want[i])
	}
	if !ok {
		t.Errorf("%s: saw %+v, want %+v", what, got, want)
	}
}

// startLogins starts logins.mjs with a wait step and answers it at its
// first {"ready"} line, with what it saw until then.
func startLogins(t *testing.T, browser string, steps ...string) (*actortest.LineScript, []shown) {
	t.Helper()
	agent := actortest.StartLineScript(t, 2*time.Minute, "logins.mjs", append([]string{browser}, steps...)...)
	line, _ := agent.Next()
	var res struct {
		Ready bool
		Seen  []shown
	}
	if json.Unmarshal([]byte(line), &res) != nil || !res.Ready {
		t.Fatalf("logins.mjs %s %v: %q", browser, steps, line)
	}
	return agent, res.Seen
}

func lastLine(s string) string {
	l := lines(s)
	return l[len(l)-1]
}
