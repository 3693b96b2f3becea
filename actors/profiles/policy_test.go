package profiles

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's policy is written private beside its storage, on disk once
// SavePolicy answers, read back by a new actor on the same directory,
// listed with the world (alone too, before any storage), and deleted by
// Forget with the storage.
func TestPolicyKeptBesideTheStorage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	ctx := context.Background()
	a := serve(t, dir)
	kept := worldapi.Policy{AllowHosts: []string{"shop.test"}, Proxy: "http://u:secret@127.0.0.1:3128", AllowFiles: []string{"/srv/up"},
		Hosts: map[string]worldapi.HostCount{"a:1": {Reached: 1}}}
	if err := a.SavePolicy(ctx, "shop", kept); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "shop"+policySuffix)
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("policy file %v %v, want mode 0600", info, err)
	}
	if err := a.Save(ctx, "both", signedIn("x")); err != nil {
		t.Fatal(err)
	}
	if err := a.SavePolicy(ctx, "both", worldapi.Policy{DenyHosts: []string{"ads.test"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b := serve(t, dir) // a new coordinator on the same state dir
	got, found, err := b.LoadPolicy(ctx, "shop")
	if err != nil || !found || got.Proxy != kept.Proxy || !slices.Equal(got.AllowHosts, kept.AllowHosts) || !slices.Equal(got.AllowFiles, kept.AllowFiles) || got.Hosts != nil {
		t.Fatalf("loaded %+v %v %v", got, found, err)
	}
	if _, found, err := b.LoadPolicy(ctx, "other"); found || err != nil {
		t.Fatalf("a policy never kept: %v %v", found, err)
	}
	list, err := b.List(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "both" || list[0].Saved.IsZero() || list[0].Policy == nil || list[0].Policy.DenyHosts[0] != "ads.test" ||
		list[1].Name != "shop" || !list[1].Saved.IsZero() || list[1].Policy == nil || list[1].Policy.Proxy != kept.Proxy {
		t.Fatalf("list %+v %v", list, err)
	}
	for _, name := range []string{"shop", "both"} {
		if forgot, err := b.Forget(ctx, name); err != nil || !forgot {
			t.Fatalf("forget %s: %v %v", name, forgot, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("forgotten, still there: %v", entries)
	}
}

// A policy file that is not a policy is refused naming the file, never
// its content (a proxy's password); one that is not the user's (a link,
// another user's) is neither read nor overwritten nor deleted.
func TestPolicyFilesThatAreNotOnesPolicy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	ctx := context.Background()
	a := serve(t, dir)
	bad := filepath.Join(dir, "bad"+policySuffix)
	if err := os.WriteFile(bad, []byte(`{"proxy": "http://u:pass-83c1@h:1", "colour": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, found, err := a.LoadPolicy(ctx, "bad")
	if !errors.Is(err, ErrNotPolicy) || found || !strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), "pass-83c1") {
		t.Fatalf("not a policy: %v %v", found, err)
	}
	link := filepath.Join(dir, "link"+policySuffix)
	if err := os.Symlink(bad, link); err != nil {
		t.Fatal(err)
	}
	others := []string{"link"}
	if os.Geteuid() == 0 { // root can give a file to another user
		other := filepath.Join(dir, "other"+policySuffix)
		if err := os.WriteFile(other, []byte(`{}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, actortest.OtherUID, actortest.OtherUID); err != nil {
			t.Fatal(err)
		}
		others = append(others, "other")
	}
	for _, name := range others {
		if _, _, err := a.LoadPolicy(ctx, name); !errors.Is(err, ErrNotMine) {
			t.Errorf("load %s: %v, want ErrNotMine", name, err)
		}
		if err := a.SavePolicy(ctx, name, worldapi.Policy{DenyHosts: []string{"a.test"}}); !errors.Is(err, ErrNotMine) {
			t.Errorf("save %s: %v, want ErrNotMine", name, err)
		}
		if _, err := a.Forget(ctx, name); !errors.Is(err, ErrNotMine) {
			t.Errorf("forget %s: %v, want ErrNotMine", name, err)
		}
	}
	if err := a.SavePolicy(ctx, "bad", worldapi.Policy{DenyHosts: []string{"a.test"}}); err != nil { // the user's own file, written anew
		t.Fatal(err)
	}
	if got, found, err := a.LoadPolicy(ctx, "bad"); err != nil || !found || got.DenyHosts[0] != "a.test" {
		t.Fatalf("written anew: %+v %v %v", got, found, err)
	}
}
