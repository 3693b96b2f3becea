package extensions

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// An extension goes with the browser that loaded it: when it exits, or a
// newer one is ready; a late answer of a gone browser teaches nothing.
func TestBookForgetsExtensionsWithTheirBrowser(t *testing.T) {
	const a, b = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	bk := newBook()
	bk.onBrowser(browser.Ready{Endpoint: browser.Endpoint{Generation: 1}})
	bk.load(a, 1)
	if !bk.has(a) || bk.has(b) {
		t.Fatalf("after loading a: has a %v, has b %v", bk.has(a), bk.has(b))
	}
	bk.uninstall(a)
	if bk.has(a) {
		t.Fatal("a uninstalled is still allowed")
	}
	bk.load(a, 1)
	bk.onBrowser(browser.Exited{Generation: 1})
	if bk.has(a) {
		t.Fatal("a is allowed after its browser exited")
	}
	if bk.load(b, 1) || bk.has(b) {
		t.Fatal("a late answer of an exited browser was noted")
	}
	bk.onBrowser(browser.Ready{Endpoint: browser.Endpoint{Generation: 2}})
	bk.load(b, 2)
	bk.onBrowser(browser.Ready{Endpoint: browser.Endpoint{Generation: 3}}) // 2's exit not heard (yet)
	if bk.has(b) {
		t.Fatal("b is allowed in a newer browser than the one that loaded it")
	}
}

func TestIsID(t *testing.T) {
	for s, want := range map[string]bool{
		"gkahdbgdkgcbeocccgcbeflaakhgcpec": true, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": true,
		"": false, "gkahdbgdkgcbeocccgcbeflaakhgcpe": false, "zkahdbgdkgcbeocccgcbeflaakhgcpec": false,
		"GKAHDBGDKGCBEOCCCGCBEFLAAKHGCPEC": false, "gkahdbgdkgcbeocccgcbeflaakhgcpec/": false,
	} {
		if IsID(s) != want {
			t.Errorf("IsID(%q) = %v, want %v", s, !want, want)
		}
	}
}
