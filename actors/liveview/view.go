package liveview

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
)

// What the page is told: the state (the same for every viewer, pushed when
// it changes) and the frames.
type (
	stateView struct {
		Type      string         `json:"type"` // "state"
		Instances []instanceView `json:"instances"`
		Requests  []requestView  `json:"requests"`
		Events    []event        `json:"events"`
	}
	instanceView struct {
		ID        string      `json:"id"`
		Default   bool        `json:"default"`
		Endpoint  string      `json:"endpoint"`
		Browser   string      `json:"browser"`
		Version   string      `json:"version"`
		State     string      `json:"state"`
		Pid       int         `json:"pid,omitempty"`
		StartedAt *time.Time  `json:"started_at,omitempty"` // the page counts the uptime
		Restarts  int         `json:"relaunches"`
		LastExit  string      `json:"last_exit,omitempty"`
		Worlds    []worldView `json:"worlds"`
		Watchable bool        `json:"watchable"` // a browser runs: its pages are listed
	}
	worldView struct {
		Name      string            `json:"name"` // "": the pages of no world
		Clients   int               `json:"clients"`
		Command   string            `json:"command,omitempty"`
		Holder    int64             `json:"holder,omitempty"` // the viewer who took it over
		Pages     []pageView        `json:"pages"`
		Downloads []downloads.Entry `json:"downloads,omitempty"`
	}
	pageView struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	requestView struct {
		ID       int       `json:"id"`
		Instance string    `json:"instance"`
		World    string    `json:"world"`
		Reason   string    `json:"reason"`
		Chosen   bool      `json:"chosen"` // the agent named the world
		Asked    time.Time `json:"asked"`
	}
	frameView struct {
		Type     string  `json:"type"` // "frame"
		Instance string  `json:"instance"`
		Page     string  `json:"page"`
		Width    float64 `json:"width"`
		Height   float64 `json:"height"`
		Offset   float64 `json:"offset"`
		Data     string  `json:"data"`
	}
)

func (r *run) state() stateView {
	s := stateView{Type: "state", Instances: []instanceView{}, Requests: []requestView{}, Events: r.events.list}
	for _, id := range r.order {
		s.Instances = append(s.Instances, r.instanceView(r.instances[id]))
	}
	for _, q := range r.humans.open {
		s.Requests = append(s.Requests, requestView{ID: q.id, Instance: q.req.Instance, World: q.req.World, Reason: q.req.Reason, Chosen: q.chosen, Asked: q.asked})
	}
	slices.SortFunc(s.Requests, func(a, b requestView) int { return a.ID - b.ID })
	if s.Events == nil {
		s.Events = []event{}
	}
	return s
}

func (r *run) instanceView(in *inst) instanceView {
	f := r.facts[in.ID]
	st := f.status
	iv := instanceView{ID: in.ID, Default: in.Default, Endpoint: in.Endpoint, Browser: st.Browser.Name, Version: st.Browser.Version,
		State: st.State, Pid: st.Pid, Restarts: st.Restarts, Watchable: in.session != nil}
	if st.State == "running" {
		iv.StartedAt = st.StartedAt
	}
	if e := st.LastExit; e != nil {
		iv.LastExit = e.Cause
		if e.Signal != "" {
			iv.LastExit += " (" + e.Signal + ")"
		}
	}
	byName := map[string]*worldView{}
	for _, w := range f.worlds {
		iv.Worlds = append(iv.Worlds, worldView{Name: w.Name, Clients: w.Clients, Command: f.commands[w.Name], Pages: []pageView{}})
	}
	iv.Worlds = append(iv.Worlds, worldView{Name: "", Pages: []pageView{}})
	for i := range iv.Worlds {
		w := &iv.Worlds[i]
		byName[w.Name] = w
		if h := r.holders[holdKey{in.ID, w.Name}]; h != nil {
			w.Holder = h.id
		}
	}
	for _, d := range f.downloads {
		if w := byName[d.Context]; w != nil {
			w.Downloads = append(w.Downloads, d)
		}
	}
	ids := make([]string, 0, len(in.pages))
	for id := range in.pages {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := in.pages[id]
		if w := byName[r.worldOf(in, p)]; w != nil {
			w.Pages = append(w.Pages, pageView{ID: p.id, Title: p.title, URL: p.url})
		}
	}
	return iv
}

// worldOf is the world a page is in ("": none known).
func (r *run) worldOf(in *inst, p *page) string {
	if p.context == "" {
		return ""
	}
	for _, w := range r.facts[in.ID].worlds {
		if strings.EqualFold(w.Context, p.context) {
			return w.Name
		}
	}
	return ""
}

// pushState sends the state to every viewer when it changed (or they
// missed it).
func (r *run) pushState() {
	if len(r.viewers) == 0 {
		return
	}
	b, err := json.Marshal(r.state())
	if err != nil {
		r.log.Error().Err(err).Msg("the live view's state")
		return
	}
	changed := !bytes.Equal(b, r.lastState)
	r.lastState = b
	for v := range r.viewers {
		if changed || v.stale {
			v.stale = !v.send(b)
		}
	}
}

// pushFrame sends a page's last frame to every viewer.
func (r *run) pushFrame(in *inst, p *page) {
	f := p.frame
	if f == nil {
		return
	}
	b, err := json.Marshal(frameView{Type: "frame", Instance: in.ID, Page: p.id, Width: f.width, Height: f.height, Offset: f.offset, Data: f.data})
	if err != nil {
		return
	}
	for v := range r.viewers {
		v.send(b) // a viewer behind misses a frame: the next one shows the page as it is
	}
}
