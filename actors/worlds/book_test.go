package worlds_test

import (
	"slices"
	"testing"
	"time"
)

// The book lists each world with its clients and pages; closing a world
// closes its clients and disposes its context, and frees its name.
func TestWorldListAndClose(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	f.newPage(a)
	f.newPage(a)
	f.newPage(b)
	ca := f.contextOf(f.targets(a)[0])
	time.Sleep(100 * time.Millisecond) // the joins are news, not answers
	list, err := f.inst.Worlds.List(f.context())
	if err != nil || len(list) != 2 || list[0].Name != "a" || list[0].Clients != 1 || list[0].Pages != 2 || list[1].Pages != 1 {
		t.Fatalf("worlds %+v (%v), want a with 1 client and 2 pages, b with 1 page", list, err)
	}
	if err := f.inst.Worlds.Close(f.context(), "a"); err != nil {
		t.Fatal(err)
	}
	a.WaitClosedWithin(5 * time.Second)
	if _, made := f.defaultContext(f.whole); slices.Contains(made, ca) {
		t.Errorf("world a's context %s outlives the world", ca)
	}
	if list, _ := f.inst.Worlds.List(f.context()); len(list) != 1 || list[0].Name != "b" {
		t.Errorf("worlds after closing a: %+v", list)
	}
	if err := f.inst.Worlds.Close(f.context(), "a"); err == nil {
		t.Error("closing a world twice: no error")
	}
	if got := f.targets(f.world("a")); len(got) != 0 {
		t.Errorf("world a made again lists %v", got)
	}
}

// A restart makes every world again in the new browser, cookies and all,
// clients or not.
func TestWorldIsMadeAgainAfterARestart(t *testing.T) {
	f := newFixture(t)
	a := f.world("a")
	f.call(a, "Storage.setCookies", `{"cookies":[{"name":"kept","value":"yes","url":"http://a.test/"}]}`)
	a.Conn.Close() // read when its client leaves
	time.Sleep(3 * f.snapshotEvery())
	if _, err := f.inst.Browser.Restart(f.context(), true); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		list, _ := f.inst.Worlds.List(f.context())
		if len(list) == 1 && list[0].Context != "" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("world a was not made again in the restarted browser: %+v", list)
		}
	}
	if got := f.cookies(f.world("a"), ""); !slices.Equal(got, []string{"kept=yes"}) {
		t.Fatalf("world a's cookies after a restart: %v", got)
	}
}
