package proxy

import (
	"net/http/httptest"
	"testing"
)

func TestTheTokenIsTakenOffTheQuery(t *testing.T) {
	p := &Actor{spec: Spec{Token: "T0k", AllowHosts: []string{"cdpvisor.svc"}}}
	for _, tc := range []struct{ target, ok, rest string }{
		{"/json/version?token=T0k", "query", ""},
		{"/json/new?https://example.test/?a=1&token=T0k", "query", "https://example.test/?a=1"},
		{"/json/new?token=T0k&about:blank", "query", "about:blank"},
		{"/json/version?token=T0kX", "", "token=T0kX"},
		{"/json/version?xtoken=T0k", "", "xtoken=T0k"},
		{"/json/version", "", ""},
	} {
		r := httptest.NewRequest("GET", tc.target, nil)
		ok, byQuery := p.authorized(r)
		if ok != (tc.ok != "") || byQuery != (tc.ok == "query") || r.URL.RawQuery != tc.rest {
			t.Errorf("%s: ok %v byQuery %v rest %q, want %q %q", tc.target, ok, byQuery, r.URL.RawQuery, tc.ok, tc.rest)
		}
	}
	r := httptest.NewRequest("GET", "/json/version", nil)
	r.Header.Set("Authorization", "Bearer T0k")
	if ok, byQuery := p.authorized(r); !ok || byQuery {
		t.Errorf("a bearer token: ok %v byQuery %v", ok, byQuery)
	}
	r.Header.Set("Authorization", "Bearer T0kk")
	if ok, _ := p.authorized(r); ok {
		t.Error("a longer bearer token passed")
	}
	for host, want := range map[string]bool{"127.0.0.1:9": true, "cdpvisor.svc:9222": true, "CDPVISOR.SVC": true, "evil.test:9222": false} {
		if got := p.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%s) = %v", host, got)
		}
	}
}
