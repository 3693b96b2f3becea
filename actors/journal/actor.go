package journal

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Spec configures a JournalActor.
type Spec struct {
	// Dir holds the journals (DirIn of the state directory); made 0700.
	Dir string
	// Cap is the most bytes a world's journal keeps on disk, its two files
	// together; 0: DefaultCap.
	Cap int64
	// Buffer is how many entries may wait for the actor before Record
	// drops them; 0: DefaultBuffer.
	Buffer int
	Log    zerolog.Logger
}

// DefaultCap is a world's journal's size on disk at most.
const DefaultCap = 1 << 20

// DefaultBuffer entries wait for the actor at most.
const DefaultBuffer = 8192

// maxURL: a navigation's URL is cut here, to keep a line a line.
const maxURL = 2048

// ErrBadWorld is a world name that cannot name a file.
var ErrBadWorld = errors.New("not a world name")

// Actor is the JournalActor: it owns the journal files and writes what
// the worlds' relays, guards and the live view record, off their way.
type Actor struct {
	spec    Spec
	entries chan Entry // Record's: never waited on by a sender
	mailbox chan any   // reads
}

// New makes a journal over spec.Dir; it writes nothing until served.
func New(spec Spec) *Actor {
	if spec.Cap <= 0 {
		spec.Cap = DefaultCap
	}
	if spec.Buffer <= 0 {
		spec.Buffer = DefaultBuffer
	}
	return &Actor{spec: spec, entries: make(chan Entry, spec.Buffer), mailbox: make(chan any)}
}

func (a *Actor) String() string { return "journal" }

// Record hands e to the journal without waiting; false: the journal is
// behind and e was dropped (the caller counts it).
func (a *Actor) Record(e Entry) bool {
	select {
	case a.entries <- e:
		return true
	default:
		return false
	}
}

// read asks for a world's entries after since; wait: if there are none
// yet, the answer waits for the next.
type read struct {
	world string
	since Since
	wait  bool
	done  <-chan struct{}
	reply chan readAnswer
}

type readAnswer struct {
	entries []Entry
	err     error
}

// Read answers a world's entries after since, oldest first. With wait, a
// read that finds none waits for the next entry of the world or ctx.
func (a *Actor) Read(ctx context.Context, world string, since Since, wait bool) ([]Entry, error) {
	if err := checkWorld(world); err != nil {
		return nil, err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan readAnswer) any {
		return read{world: world, since: since, wait: wait, done: ctx.Done(), reply: r}
	})
	if err != nil {
		return nil, err
	}
	return got.entries, got.err
}

func checkWorld(world string) error {
	if world == "" || world == "." || world == ".." || strings.ContainsAny(world, `/\`+"\x00") {
		return fmt.Errorf("%w: %q", ErrBadWorld, world)
	}
	return nil
}

// run is what Serve's goroutine owns.
type run struct {
	a       *Actor
	files   map[string]*worldFile
	bufs    map[string]*bufio.Writer // unflushed lines, by world
	waiting map[string][]read
	refused map[string]bool // worlds whose file could not be opened: said once
}

// Serve writes entries and answers reads until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	if err := state.PrepareDir(a.spec.Dir); err != nil {
		return fmt.Errorf("the journal directory: %w", err)
	}
	r := &run{a: a, files: map[string]*worldFile{}, bufs: map[string]*bufio.Writer{}, waiting: map[string][]read{}, refused: map[string]bool{}}
	defer r.closeAll()
	for {
		select {
		case <-ctx.Done():
			r.drain()
			return ctx.Err()
		case e := <-a.entries:
			r.write(e)
			if len(a.entries) == 0 {
				r.flush()
			}
		case m := <-a.mailbox:
			if q, ok := m.(read); ok {
				r.read(q)
			}
		}
	}
}

// drain writes what waits at the stop.
func (r *run) drain() {
	for {
		select {
		case e := <-r.a.entries:
			r.write(e)
		default:
			r.flush()
			return
		}
	}
}

func (r *run) write(e Entry) {
	if checkWorld(e.World) != nil {
		return
	}
	w, err := r.file(e.World)
	if err != nil {
		if !r.refused[e.World] {
			r.refused[e.World] = true
			r.a.spec.Log.Warn().Err(err).Str("world", e.World).Msg("the world's journal is not kept")
		}
		return
	}
	w.seq++
	e.Seq = w.seq
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	if len(e.URL) > maxURL {
		e.URL = e.URL[:maxURL]
	}
	line, err := json.Marshal(&e)
	if err != nil {
		return
	}
	line = append(line, '\n')
	buf := r.bufs[e.World]
	if w.size > 0 && w.size+int64(buf.Buffered()+len(line)) > r.a.spec.Cap/2 {
		r.flushWorld(e.World)
	}
	if buf.Buffered() == 0 {
		// Flushed: the file decides on its rotation with the line.
		if err := w.append(line, r.a.spec.Cap); err != nil {
			r.a.spec.Log.Warn().Err(err).Str("world", e.World).Msg("journal")
		}
	} else {
		buf.Write(line)
	}
	r.answerWaiting(e.World)
}

// file is a world's open journal, opened at its first entry.
func (r *run) file(world string) (*worldFile, error) {
	if w, ok := r.files[world]; ok {
		return w, nil
	}
	w, err := openWorldFile(r.a.spec.Dir, world)
	if err != nil {
		return nil, err
	}
	r.files[world] = w
	r.bufs[world] = bufio.NewWriterSize(fileAppender{w: w, cap: r.a.spec.Cap}, 32*1024)
	return w, nil
}

// fileAppender writes a buffer's lines through the world file, which
// rotates between whole lines.
type fileAppender struct {
	w   *worldFile
	cap int64
}

func (f fileAppender) Write(p []byte) (int, error) {
	if err := f.w.append(p, f.cap); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (r *run) flush() {
	for world := range r.bufs {
		r.flushWorld(world)
	}
}

func (r *run) flushWorld(world string) {
	if buf := r.bufs[world]; buf != nil && buf.Buffered() > 0 {
		if err := buf.Flush(); err != nil {
			r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("journal")
			buf.Reset(fileAppender{w: r.files[world], cap: r.a.spec.Cap})
		}
	}
}

func (r *run) read(q read) {
	r.flushWorld(q.world)
	entries, err := readWorld(r.a.spec.Dir, q.world, q.since)
	if err == nil && len(entries) == 0 && q.wait {
		r.waiting[q.world] = append(r.waiting[q.world], q)
		return
	}
	q.reply <- readAnswer{entries: entries, err: err}
}

// answerWaiting answers the reads waiting for a world's next entry, and
// forgets those whose asker left.
func (r *run) answerWaiting(world string) {
	qs := r.waiting[world]
	if len(qs) == 0 {
		return
	}
	delete(r.waiting, world)
	r.flushWorld(world)
	for _, q := range qs {
		select {
		case <-q.done:
			continue
		default:
		}
		entries, err := readWorld(r.a.spec.Dir, world, q.since)
		if err == nil && len(entries) == 0 {
			r.waiting[world] = append(r.waiting[world], q)
			continue
		}
		q.reply <- readAnswer{entries: entries, err: err}
	}
}

func (r *run) closeAll() {
	r.flush()
	for _, w := range r.files {
		w.close()
	}
}
