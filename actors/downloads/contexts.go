package downloads

// contexts is what the actor knows of one browser's contexts, from its own
// target discovery: which context each target is in, which contexts clients
// made (Target.createBrowserContext), which one is the default, and which
// are worlds' own.
type contexts struct {
	defaultID string            // the default context's id, once seen
	created   map[string]bool   // contexts clients made (worlds' included)
	checking  map[string]bool   // seen, not yet known to be made or the default
	targets   map[string]string // target id → its context id
	worlds    map[string]string // a world's own context → the world's name
}

func newContexts() *contexts {
	return &contexts{created: map[string]bool{}, checking: map[string]bool{}, targets: map[string]string{}, worlds: map[string]string{}}
}

// known says the context was seen before.
func (c *contexts) known(id string) bool {
	return id == c.defaultID || c.created[id] || c.checking[id]
}

// key is how a context is named in the client overrides: "" for the
// default one.
func (c *contexts) key(id string) string {
	if id == c.defaultID || (!c.created[id] && !c.checking[id]) {
		return ""
	}
	return id
}

// overrides are the download behaviours clients set for themselves, by
// context ("" for the default one) and by the connection that set them:
// Chromium undoes a connection's setting when the connection closes, so
// once nobody holds a context, cdpvisor's own behaviour applies again.
type overrides struct {
	byContext map[string]map[*watchedConn]bool
}

func newOverrides() *overrides { return &overrides{byContext: map[string]map[*watchedConn]bool{}} }

func (o *overrides) set(conn *watchedConn, context string) {
	if o.byContext[context] == nil {
		o.byContext[context] = map[*watchedConn]bool{}
	}
	o.byContext[context][conn] = true
}

// held says a client's own setting is in force for the context.
func (o *overrides) held(context string) bool { return len(o.byContext[context]) > 0 }

// gone forgets conn and returns the contexts no client holds any more.
func (o *overrides) gone(conn *watchedConn) []string {
	var released []string
	for context, conns := range o.byContext {
		if !conns[conn] {
			continue
		}
		delete(conns, conn)
		if len(conns) == 0 {
			delete(o.byContext, context)
			released = append(released, context)
		}
	}
	return released
}
