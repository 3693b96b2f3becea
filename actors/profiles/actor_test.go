package profiles

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

func serve(t *testing.T, dir string) *Actor {
	t.Helper()
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	a := New(Spec{Dir: dir, WriteDelay: 20 * time.Millisecond, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return a
}

func signedIn(value string) storagestate.State {
	return storagestate.State{
		Cookies: []storagestate.Cookie{{Name: "sid", Value: value, Domain: "shop.test", Path: "/", Expires: -1, HTTPOnly: true, Secure: true, SameSite: "Lax"}},
		Origins: []storagestate.Origin{{Origin: "https://shop.test", LocalStorage: []storagestate.Item{{Name: "token", Value: value}}}},
	}
}

// A world's storage is written private, read back by a new actor on the
// same directory, listed with its size and time, and gone once forgotten.
func TestProfilesKeepAndForget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	ctx := context.Background()
	a := serve(t, dir)
	if err := a.Save(ctx, "shop", signedIn("one")); err != nil {
		t.Fatal(err)
	}
	if err := a.Save(ctx, "shop", signedIn("two")); err != nil { // the newest wins
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "shop"+fileSuffix)
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("profile file %v %v, want mode 0600", info, err)
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Fatalf("profiles dir mode %v, want 0700", d.Mode().Perm())
	}
	b := serve(t, dir) // a new coordinator on the same state dir
	got, found, err := b.Load(ctx, "shop")
	if err != nil || !found || got.Cookies[0].Value != "two" || got.Origins[0].LocalStorage[0].Value != "two" {
		t.Fatalf("loaded %+v %v %v", got, found, err)
	}
	if _, found, _ := b.Load(ctx, "other"); found {
		t.Fatal("a world never kept was found")
	}
	list, err := b.List(ctx)
	if err != nil || len(list) != 1 || list[0].Name != "shop" || list[0].Bytes != info.Size() || time.Since(list[0].Saved) > time.Minute {
		t.Fatalf("list %+v %v", list, err)
	}
	if forgot, err := b.Forget(ctx, "shop"); err != nil || !forgot {
		t.Fatalf("forget: %v %v", forgot, err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the profile file is still there: %v", err)
	}
	if forgot, err := b.Forget(ctx, "shop"); err != nil || forgot {
		t.Fatalf("forgetting again: %v %v", forgot, err)
	}
}

// A state handed in and not yet written is what Load answers, and what
// the actor writes when it stops; a forget drops it unwritten.
func TestProfilesWritePendingOnStopAndDropItOnForget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	a := New(Spec{Dir: dir, WriteDelay: time.Hour, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	bg := context.Background()
	_ = a.Save(bg, "shop", signedIn("pending"))
	_ = a.Save(bg, "gone", signedIn("x"))
	if got, found, _ := a.Load(bg, "shop"); !found || got.Cookies[0].Value != "pending" {
		t.Fatalf("pending state not answered: %+v", got)
	}
	if _, err := a.Forget(bg, "gone"); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	if _, err := os.Stat(filepath.Join(dir, "shop"+fileSuffix)); err != nil {
		t.Fatalf("the pending state was not written at the stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone"+fileSuffix)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a forgotten world was written: %v", err)
	}
}

// A profile that is not a storage state is not read (nor taken for an
// empty one), and the refusal says which file.
func TestProfilesRefuseAFileThatIsNotAStorageState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	a := serve(t, dir)
	file := filepath.Join(dir, "shop"+fileSuffix)
	if err := os.WriteFile(file, []byte(`{"cookies":"no"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, found, err := a.Load(context.Background(), "shop")
	if !errors.Is(err, ErrUnreadable) || found {
		t.Fatalf("load: %v %v, want ErrUnreadable", found, err)
	}
}

// A profiles dir others may write to is refused.
func TestPrepareRefusesADirOthersMayWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := Prepare(dir); err == nil {
		t.Fatal("a profiles dir of mode 0777 was taken")
	}
}

// A profile read or written once is not parsed again while its file stays
// as it was; a file changed on disk since (the user's edit, another
// coordinator's write) is read again.
func TestProfileChangedOnDiskIsReadAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	ctx := context.Background()
	a := serve(t, dir)
	if err := a.Save(ctx, "shop", signedIn("one")); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	token := func() string {
		t.Helper()
		got, found, err := a.Load(ctx, "shop")
		if err != nil || !found || len(got.Origins) != 1 {
			t.Fatalf("Load: %+v %v %v", got, found, err)
		}
		return got.Origins[0].LocalStorage[0].Value
	}
	if got := token(); got != "one" {
		t.Fatalf("token %q, want one", got)
	}
	file := filepath.Join(dir, "shop"+fileSuffix)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte(strings.ReplaceAll(string(data), `"one"`, `"six"`)) // the same size
	later := time.Now().Add(time.Second)
	if err := os.WriteFile(file, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	if got := token(); got != "six" {
		t.Fatalf("token %q after the file was edited, want six", got)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, found, err := a.Load(ctx, "shop"); found || err != nil {
		t.Fatalf("Load after the file was removed: found %v, %v; want none", found, err)
	}
}

// A write that waits on the disk holds nobody: the actor takes a world's
// next state and answers a load meanwhile (the WorldsActor, and the
// clients behind it, never wait for a disk); a flush answers once both are
// written, the newest last.
func TestProfilesAnswerWhileAWriteWaitsOnTheDisk(t *testing.T) {
	stuck, release := make(chan string, 4), make(chan struct{})
	writeFileAtomic = func(p string, data []byte) error {
		stuck <- filepath.Base(p)
		<-release
		return state.WriteFileAtomic(p, data)
	}
	t.Cleanup(func() { writeFileAtomic = state.WriteFileAtomic })
	dir := filepath.Join(t.TempDir(), "profiles")
	a := serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := a.Save(ctx, "shop", signedIn("one")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stuck: // the writer waits on the disk
	case <-ctx.Done():
		t.Fatal("the state handed in was not written")
	}
	if err := a.Save(ctx, "shop", signedIn("two")); err != nil {
		t.Fatalf("a save while a write waits on the disk: %v", err)
	}
	got, found, err := a.Load(ctx, "shop")
	if err != nil || !found || got.Cookies[0].Value != "two" {
		t.Fatalf("a load while a write waits on the disk: %+v %v %v, want the newest state", got, found, err)
	}
	flushed := make(chan error, 1)
	go func() { flushed <- a.Flush(context.Background()) }()
	close(release)
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	b := serve(t, dir)
	if got, _, err := b.Load(context.Background(), "shop"); err != nil || got.Cookies[0].Value != "two" {
		t.Fatalf("on disk after the flush: %+v %v, want two", got, err)
	}
}
