package journal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
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
	// IdleClose: a world's file not written for this long is closed; 0:
	// DefaultIdleClose.
	IdleClose time.Duration
	// Passing says a world's name never comes back (a fresh agent-…
	// world): its journal goes when the coordinator stops (retire.go).
	Passing func(world string) bool
	// PassingClosed passing worlds' journals are kept once their worlds
	// closed, the newest; 0: DefaultPassingClosed.
	PassingClosed int
	Log           zerolog.Logger
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
//
// Entries come in through a queue under a lock rather than the mailbox: a
// relay records one per command, and a hand-off that wakes the actor for
// each would cost the round trip more than the record itself. The first
// entry into an empty queue kicks the actor, which takes the whole queue
// a BatchDelay later; a read takes it at once.
type Actor struct {
	spec    Spec
	mailbox chan request  // reads, forgets (requests.go)
	kick    chan struct{} // the queue is no longer empty (capacity 1)

	mu      sync.Mutex
	queue   []Entry // guarded by mu
	dropped map[string]int64
	closed  []string // passing worlds that closed (Closed); guarded by mu
}

// DefaultIdleClose: a world's journal file not written for this long is
// closed (opened again at its next entry), so that a coordinator that saw
// many worlds come and go does not hold a descriptor for each.
const DefaultIdleClose = 30 * time.Second

// BatchDelay is how long the first entry of a batch waits for the rest:
// a kill loses at most this much of the journal, and the buffers.
const BatchDelay = 50 * time.Millisecond

// New makes a journal over spec.Dir; it writes nothing until served.
func New(spec Spec) *Actor {
	if spec.Cap <= 0 {
		spec.Cap = DefaultCap
	}
	if spec.Buffer <= 0 {
		spec.Buffer = DefaultBuffer
	}
	if spec.IdleClose <= 0 {
		spec.IdleClose = DefaultIdleClose
	}
	if spec.PassingClosed <= 0 {
		spec.PassingClosed = DefaultPassingClosed
	}
	return &Actor{spec: spec, mailbox: make(chan request), kick: make(chan struct{}, 1), dropped: map[string]int64{}}
}

func (a *Actor) String() string { return "journal" }

// Record hands e to the journal without waiting; false: the journal is
// behind (Buffer entries wait) and e was dropped, which the journal says
// in its next entry of e's world.
func (a *Actor) Record(e Entry) bool {
	a.mu.Lock()
	if len(a.queue) >= a.spec.Buffer {
		a.dropped[e.World]++
		a.mu.Unlock()
		return false
	}
	first := len(a.queue) == 0
	a.queue = append(a.queue, e)
	a.mu.Unlock()
	if first {
		a.wake()
	}
	return true
}

// wake kicks the actor for a queue that was empty; a kick waiting
// already will do.
func (a *Actor) wake() {
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// take empties the queue, the drops told as entries before the rest.
func (a *Actor) take(into []Entry) []Entry {
	a.mu.Lock()
	for world, n := range a.dropped {
		into = append(into, Entry{Time: time.Now(), World: world, Kind: KindDropped, Dropped: n})
	}
	clear(a.dropped)
	into = append(into, a.queue...)
	clear(a.queue)
	a.queue = a.queue[:0]
	a.mu.Unlock()
	return into
}

// Read answers a world's entries after since, oldest first. With wait, a
// read that finds none waits for the next entry of the world or ctx.
func (a *Actor) Read(ctx context.Context, world string, since Since, wait bool) ([]Entry, error) {
	if err := checkWorld(world); err != nil {
		return nil, err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan readAnswer) request {
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
	// prepared: the directory is made and checked, once a world's first
	// entry comes (a coordinator whose worlds did nothing leaves no
	// directory behind).
	prepared bool
	batch    []Entry // the entries being written, reused
	line     []byte  // the line being written, reused
	// passing: the passing worlds whose journal this run opened;
	// passingClosed: those whose world closed, oldest first.
	passing       map[string]bool
	passingClosed []string
	closedNow     []string // reused
}

// Serve writes entries and answers reads until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	r := &run{a: a, files: map[string]*worldFile{}, bufs: map[string]*bufio.Writer{}, waiting: map[string][]read{}, refused: map[string]bool{}, passing: map[string]bool{}}
	defer r.closeAll()
	r.removeStalePassing(time.Now())
	batch := time.NewTimer(BatchDelay)
	batch.Stop()
	defer batch.Stop()
	idle := time.NewTicker(a.spec.IdleClose / 2)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			r.drain()
			r.removePassing()
			return ctx.Err()
		case now := <-idle.C:
			r.closeIdle(now)
		case <-a.kick:
			batch.Reset(BatchDelay)
		case <-batch.C:
			r.drain()
		case m := <-a.mailbox:
			r.handle(m)
		}
	}
}

// drain writes what the queue holds, and flushes it to the files.
func (r *run) drain() {
	r.batch = r.a.take(r.batch[:0])
	for _, e := range r.batch {
		r.write(e)
	}
	r.flush()
	if len(r.waiting) > 0 {
		for _, e := range r.batch {
			r.answerWaiting(e.World) // once per world: its waiters are gone after
		}
		r.forgetLeft()
	}
	clear(r.batch)
	r.retireClosed()
}

// forgetLeft forgets the waiting reads whose asker left (a follower
// interrupted, its wait over) in worlds where nothing came.
func (r *run) forgetLeft() {
	for world, qs := range r.waiting {
		kept := qs[:0]
		for _, q := range qs {
			select {
			case <-q.done:
			default:
				kept = append(kept, q)
			}
		}
		if len(kept) == 0 {
			delete(r.waiting, world)
		} else {
			r.waiting[world] = kept
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
	w.written = time.Now()
	r.line = appendEntry(r.line[:0], &e)
	r.line = append(r.line, '\n')
	buf, half := r.bufs[e.World], r.a.spec.Cap/2
	if w.size+int64(buf.Buffered()+len(r.line)) > half {
		r.flushWorld(e.World)
		if w.size > 0 && w.size+int64(len(r.line)) > half {
			if err := w.rotate(); err != nil {
				r.a.spec.Log.Warn().Err(err).Str("world", e.World).Msg("journal")
			}
		}
	}
	buf.Write(r.line) // the file's half never passes: a whole buffer fits
}

// file is a world's open journal, opened at its first entry.
func (r *run) file(world string) (*worldFile, error) {
	if w, ok := r.files[world]; ok {
		return w, nil
	}
	if !r.prepared {
		if err := state.PrepareDir(r.a.spec.Dir); err != nil {
			return nil, fmt.Errorf("the journal directory: %w", err)
		}
		r.prepared = true
	}
	w, err := openWorldFile(r.a.spec.Dir, world)
	if err != nil {
		return nil, err
	}
	r.files[world] = w
	if r.a.spec.Passing != nil && r.a.spec.Passing(world) {
		r.passing[world] = true
	}
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
		r.forgetLeft()
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

// closeIdle closes the files of the worlds nothing was written to for
// the spec's IdleClose.
func (r *run) closeIdle(now time.Time) {
	for world, w := range r.files {
		if now.Sub(w.written) < r.a.spec.IdleClose {
			continue
		}
		r.flushWorld(world)
		w.close()
		delete(r.files, world)
		delete(r.bufs, world)
	}
}

func (r *run) closeAll() {
	r.flush()
	for _, w := range r.files {
		w.close()
	}
}
