package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"time"
)

// bench is what the measurements share.
type bench struct {
	cfg     config
	cl      *cleaner
	root    string // temp dir of everything launched (--launch)
	bin     string // cdpvisor binary (--launch)
	baseBin string // baseline cdpvisor binary (--baseline-bin; "" = none)
	browser string
	cv      *cdpvisorProc // the long-lived cdpvisor (--launch)
	bare    *chromiumProc // the long-lived bare browser (--launch)
	cvLog   io.Writer     // --cdpvisor-log: every cdpvisor's stderr (nil: kept only for errors)
}

// shortTempRoot makes the temp dir of the run. Chromium aborts when
// $TMPDIR is long (it makes sockets under it), so keep it short.
func shortTempRoot() (string, error) {
	base := os.TempDir()
	if len(base) > 20 {
		if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
			base = "/tmp"
		}
	}
	return os.MkdirTemp(base, "cdpb-")
}

// httpEndpoint turns ws://host:port/devtools/… into http://host:port.
func httpEndpoint(ws string) (string, error) {
	u, err := url.Parse(ws)
	if err != nil {
		return "", err
	}
	if u.Host == "" {
		return "", fmt.Errorf("no host in %q", ws)
	}
	return "http://" + u.Host, nil
}

// launchBare starts a bare browser whose stop is also registered with the
// cleaner (Ctrl-C while it runs).
func (b *bench) launchBare(ctx context.Context) (*chromiumProc, func(), error) {
	p, err := startChromium(ctx, b.browser, b.root)
	if err != nil {
		return nil, nil, err
	}
	return p, b.cl.add(p.stop), nil
}

// launchCdpvisor starts `cdpvisor serve`, its stop registered likewise;
// env entries are added to its environment.
func (b *bench) launchCdpvisor(ctx context.Context, env ...string) (*cdpvisorProc, func(), error) {
	return b.launchCdpvisorBin(ctx, b.bin, env...)
}

// launchCdpvisorBin is launchCdpvisor with another binary (the baseline).
func (b *bench) launchCdpvisorBin(ctx context.Context, bin string, env ...string) (*cdpvisorProc, func(), error) {
	p, err := startCdpvisor(ctx, bin, b.browser, b.root, b.cfg.CvLogLevel, b.cvLog, env...)
	if err != nil {
		return nil, nil, err
	}
	return p, b.cl.add(p.stop), nil
}

// browserGetVersion is the "first CDP answer" of cold start and recovery.
func browserGetVersion(ctx context.Context, c *cdpClient, timeout time.Duration) (browserVersion, error) {
	var v browserVersion
	err := c.Do(ctx, "", "Browser.getVersion", nil, &v, timeout)
	return v, err
}

// sleepCtx sleeps d unless ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// openControl connects straight to the browser cdpvisor runs, for the
// round trip's third side; nil (with a note) when that is not possible:
// without --launch (the endpoints may be anywhere), without /proc, with
// --control=false, or when that browser has no debugging port (issue 27:
// cdpvisor carries every client over its --remote-debugging-pipe).
func (b *bench) openControl(ctx context.Context, p *endpointSide) *endpointSide {
	why := ""
	switch {
	case !b.cfg.Launch:
		why = "needs --launch"
	case !haveProcfs:
		why = "needs /proc (Linux)"
	case !b.cfg.Control:
		why = "--control=false"
	}
	if why == "" {
		e, err := b.dialControl(ctx, p)
		if err == nil {
			return e
		}
		why = err.Error()
	}
	progress("no control side (cdpvisor's browser reached directly): %s; the round trip and large messages "+
		"run without their \"same browser\" side, the Node round trip's direct side and relays use the bare browser", why)
	return nil
}

// dialControl attaches a second flattened session to the very page the
// cdpvisor side uses, over a websocket straight to that browser: the same
// renderer answers both, so the difference is the relay alone. (A page of
// its own would put the cdpvisor side's page in the background.)
func (b *bench) dialControl(ctx context.Context, p *endpointSide) (*endpointSide, error) {
	ep, err := controlEndpoint(ctx, p.client, b.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	ws, err := resolveWS(ctx, ep)
	if err != nil {
		return nil, err
	}
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return nil, err
	}
	session, err := c.attach(ctx, p.target, b.cfg.Timeout)
	if err != nil {
		c.Close()
		return nil, err
	}
	// target stays "": closing the control must not close the shared page
	return &endpointSide{side: sideControl, endpoint: ep, ws: ws, client: c, session: session}, nil
}
