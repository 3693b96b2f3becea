package actors_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The house's rules (docs/architecture.md, ../shared/architecture.json):
// what keeps every feature a room of its own. Each is read from the code
// itself, so a change that breaks one fails here, not in review.

const module = "github.com/cdpvisor/cdpvisor/"

// worldsRoom is the one package tree that owns a world.
var worldsRoom = []string{"actors/worlds", "actors/guard", "actors/profiles", "actors/storagestate"}

// goFile is one Go file of the repository, read once.
type goFile struct {
	path    string // from the repository's root, with slashes
	test    bool
	lines   int
	imports []string // module-relative, for the module's own packages
	src     []byte
	ast     *ast.File
}

func (f goFile) dir() string { return filepath.ToSlash(filepath.Dir(f.path)) }

// readHouse reads every Go file of the repository but npm's and the
// fixtures' (testdata/ holds programs of its own, not rooms).
func readHouse(t *testing.T) []goFile {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var files []goFile
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		file, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		f := goFile{path: rel, test: strings.HasSuffix(rel, "_test.go"), lines: strings.Count(string(src), "\n"), src: src, ast: file}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, module); ok {
				f.imports = append(f.imports, rest)
			}
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("read %d Go files from %s: not the repository", len(files), root)
	}
	return files
}

func under(path string, dirs ...string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return path == d || strings.HasPrefix(path, d+"/") })
}

// A world has one owner: no file is named for worlds outside its room
// (the command line's edges and the docs speak of worlds; they own none).
func TestWorldsHaveOneRoom(t *testing.T) {
	for _, f := range readHouse(t) {
		name := filepath.Base(f.path)
		if !strings.HasPrefix(name, "world") || under(f.path, worldsRoom...) || under(f.path, "cmd") {
			continue
		}
		t.Errorf("%s is named for worlds outside their room (%s): move it there, or say what it is about", f.path, strings.Join(worldsRoom, ", "))
	}
}

// A world's storage is a sub-room of the worlds' (issue 48), with one
// direction of reference: the WorldsActor calls it through its entry
// points and owns its state; it reaches the actor only through the Host
// the actor gives it. Of the worlds' room it imports only the format below
// it (actors/storagestate): no package of actors/worlds above it, nor the
// other sub-rooms and their neighbours (the guard, the profiles).
func TestWorldsStorageLooksNoHigher(t *testing.T) {
	const room = "actors/worlds/storage"
	n := 0
	for _, f := range readHouse(t) {
		if f.test || !under(f.dir(), room) {
			continue // tests are no rooms
		}
		n++
		for _, imp := range f.imports {
			if under(imp, append([]string{"actors/worlds"}, worldsRoom...)...) && !under(imp, room, "actors/storagestate") {
				t.Errorf("%s imports %s: the storage room is called by the worlds, never the other way round (it asks its Host)", f.path, imp)
			}
		}
	}
	if n == 0 {
		t.Errorf("%s has no Go files: the worlds' storage left its room, or the rule names the wrong one", room)
	}
}

// The root package is the supervision tree, not a facade every feature
// edits: a few files, none named for a feature.
func TestTheRootPackageIsSmall(t *testing.T) {
	features := regexp.MustCompile(`world|journal|liveview|live_view|profile|lease|metric|extension|download|guard|storage|kept`)
	n := 0
	for _, f := range readHouse(t) {
		if f.dir() != "actors" || f.test {
			continue
		}
		n++
		if features.MatchString(filepath.Base(f.path)) {
			t.Errorf("%s is named for a feature: a feature lives in its own room and plugs in", f.path)
		}
	}
	if n > 6 {
		t.Errorf("the root package actors has %d non-test files, more than 6", n)
	}
}

// actors/state is how coordinators are found: it declares nothing of
// worlds.
func TestStateDeclaresNoWorld(t *testing.T) {
	for _, f := range readHouse(t) {
		if f.dir() != "actors/state" {
			continue
		}
		for _, decl := range f.ast.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if name := s.(*ast.TypeSpec).Name.Name; strings.HasPrefix(name, "World") {
					t.Errorf("%s declares %s: the worlds' types live in their room", f.path, name)
				}
			}
		}
	}
}

// Every mailbox carries a closed set of messages: no chan of anything.
func TestNoMailboxOfAnything(t *testing.T) {
	anything := regexp.MustCompile(`chan\s*(<-\s*)?(any|interface\s*\{\s*\})\b`)
	for _, f := range readHouse(t) {
		if under(f.path, "actors") && anything.Match(f.src) {
			t.Errorf("%s has a chan of any: a mailbox carries one sealed request type", f.path)
		}
	}
}

// The relay runs stages it does not name: it declares the Stage type the
// features implement.
func TestTheRelayDeclaresItsStage(t *testing.T) {
	for _, f := range readHouse(t) {
		if f.dir() != "actors/relay" || f.test {
			continue
		}
		for _, decl := range f.ast.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if s.(*ast.TypeSpec).Name.Name == "Stage" {
						return
					}
				}
			}
		}
	}
	t.Error("actors/relay declares no Stage type")
}

// Small files with one job; package main holds flags, help and the edges'
// wording, no more (logic goes to actors/; the packages under
// cmd/cdpvisor/internal have jobs of their own and are not counted).
func TestFilesStaySmall(t *testing.T) {
	mainLines := 0
	for _, f := range readHouse(t) {
		if f.test {
			continue
		}
		if f.lines > 400 {
			t.Errorf("%s has %d lines, more than 400: split it by job", f.path, f.lines)
		}
		if f.dir() == "cmd/cdpvisor" {
			mainLines += f.lines
		}
	}
	if mainLines > 2000 {
		t.Errorf("cmd/cdpvisor has %d lines of non-test Go, more than 2000: move what is not flags, help or an edge's wording into actors/", mainLines)
	}
}

// The arrows the intended picture forbids (../shared/architecture.json's
// "never"), by package prefix: from, to, why.
var never = []struct{ from, to []string }{
	{[]string{"fsm"}, []string{"actors", "transport"}},                                                                                       // machines are pure: driven, they know no actors and no wire
	{[]string{"transport", "actors/multiplex"}, []string{"actors/relay"}},                                                                    // framing knows no supervision
	{[]string{"actors/browser"}, []string{"actors/relay"}},                                                                                   // the browser knows no clients
	{[]string{"actors/launch"}, []string{"actors/browser"}},                                                                                  // launchers are plain functions and processes
	{[]string{"actors/proxy"}, append([]string{"actors/liveview", "actors/journal", "actors/recorder", "actors/pacing"}, worldsRoom...)},     // the proxy routes; features mount their handlers
	{[]string{"actors/relay"}, append([]string{"actors/liveview", "actors/journal", "actors/recorder", "actors/pacing"}, worldsRoom...)},     // the relay runs stages it does not name
	{[]string{"actors/state"}, worldsRoom},                                                                                                   // state is how coordinators are found
	{[]string{"actors"}, []string{"cmd"}},                                                                                                    // actors are driven by messages, not by the CLI
	{[]string{"cmd/cdpbench"}, []string{"actors", "fsm", "transport"}},                                                                       // the bench measures a binary
	{[]string{"actors/recorder/pwtrace", "actors/recorder/video", "actors/recorder/store"}, []string{"actors", "fsm", "transport"}},          // formats and files: the recorder hands them plain records
	{[]string{"actors/recorder"}, []string{"actors/journal", "actors/liveview"}},                                                             // the recorder hears the others through their hooks
	{append([]string{"actors/journal", "actors/liveview", "actors/downloads"}, worldsRoom...), []string{"actors/recorder"}},                  // nothing reaches into the recorder: it plugs in
	{append([]string{"actors/journal", "actors/liveview", "actors/recorder", "actors/downloads"}, worldsRoom...), []string{"actors/pacing"}}, // nor into pacing
}

// An actor knows no coordinator: no package under actors/ but the tree's
// own imports the root package.
func TestNeverArrowsHold(t *testing.T) {
	for _, f := range readHouse(t) {
		if f.test {
			continue // tests are no rooms: they may wire features to what they test
		}
		for _, imp := range f.imports {
			if imp == "actors" && under(f.dir(), "actors") && f.dir() != "actors" {
				t.Errorf("%s imports the root package actors: an actor knows no coordinator", f.path)
			}
			for _, n := range never {
				if under(f.dir(), n.from...) && under(imp, n.to...) && !under(imp, n.from...) {
					t.Errorf("%s imports %s: the house forbids %v -> %v", f.path, imp, n.from, n.to)
				}
			}
		}
	}
}
