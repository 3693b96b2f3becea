package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// transferResult is one kind of large answer: alternating single transfers.
type transferResult struct {
	Name        string    `json:"name"`
	Bytes       int       `json:"answer_bytes"` // size of the answer message (cdpvisor side, last)
	Rounds      int       `json:"rounds"`
	DirectMBps  []float64 `json:"direct_mbps"`
	ProxyMBps   []float64 `json:"cdpvisor_mbps"`
	DirectMed   float64   `json:"direct_median_mbps"`
	ProxyMed    float64   `json:"cdpvisor_median_mbps"`
	Ratio       float64   `json:"ratio"` // cdpvisor / direct, medians
	DirectMedMs float64   `json:"direct_median_ms"`
	ProxyMedMs  float64   `json:"cdpvisor_median_ms"`
	// The control side (cdpvisor's own browser without cdpvisor), when
	// there is one: RelayRatio = cdpvisor / control is the relay alone.
	ControlMBps []float64 `json:"control_mbps,omitempty"`
	ControlMed  float64   `json:"control_median_mbps,omitempty"`
	RelayRatio  float64   `json:"relay_only_ratio,omitempty"`
}

type largeResult struct {
	Transfers []transferResult `json:"transfers"`
}

// bigPage is the screenshot's page: 1280×4000 of coloured boxes and text,
// the same bytes on both sides.
func bigPage() string {
	var b strings.Builder
	b.WriteString(`document.body.style.margin='0';document.body.innerHTML=`)
	var h strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&h, `<div style="height:20px;background:hsl(%d,70%%,%d%%);font:14px sans-serif">row %d — the quick brown fox jumps over the lazy dog %d</div>`, (i*37)%360, 40+(i%5)*10, i, i*i)
	}
	js, _ := json.Marshal(h.String())
	b.Write(js)
	b.WriteString(`;document.body.scrollHeight`)
	return b.String()
}

// transfer is one kind of large answer.
type transfer struct {
	name   string
	method string
	params any
	check  func([]byte) error
	// before runs untimed before every transfer (screenshots: bring the
	// side's page to the front; a background tab never paints, and with
	// both sides on one browser one of them is in the background).
	before func(ctx context.Context, e *endpointSide, timeout time.Duration) error
}

func stringTransfer(name string, n int) transfer {
	return transfer{
		name:   name,
		method: "Runtime.evaluate",
		params: map[string]any{"expression": fmt.Sprintf("'x'.repeat(%d)", n), "returnByValue": true},
		check: func(msg []byte) error {
			if len(msg) < n {
				return fmt.Errorf("answer of %d bytes, want at least %d", len(msg), n)
			}
			return decodeAnswer(msg, nil)
		},
	}
}

func screenshotTransfer() transfer {
	return transfer{
		name:   "full-page screenshot",
		method: "Page.captureScreenshot",
		params: map[string]any{"format": "png", "captureBeyondViewport": true},
		check: func(msg []byte) error {
			var shot struct {
				Data string `json:"data"`
			}
			if err := decodeAnswer(msg, &shot); err != nil {
				return err
			}
			if len(shot.Data) < 1000 {
				return fmt.Errorf("screenshot of %d bytes", len(shot.Data))
			}
			return nil
		},
		before: func(ctx context.Context, e *endpointSide, timeout time.Duration) error {
			return e.client.Do(ctx, e.session, "Page.bringToFront", nil, nil, timeout)
		},
	}
}

// preparePage gives a side's page the screenshot's size and content.
func preparePage(ctx context.Context, e *endpointSide, timeout time.Duration) error {
	metrics := map[string]any{"width": 1280, "height": 4000, "deviceScaleFactor": 1, "mobile": false}
	if err := e.client.Do(ctx, e.session, "Emulation.setDeviceMetricsOverride", metrics, nil, timeout); err != nil {
		return fmt.Errorf("%s: %w", e.side, err)
	}
	if err := e.client.Do(ctx, e.session, "Runtime.evaluate", map[string]any{"expression": bigPage()}, nil, timeout); err != nil {
		return fmt.Errorf("%s: %w", e.side, err)
	}
	return nil
}

// measureLarge alternates single transfers: direct, cdpvisor (, control), ….
func measureLarge(ctx context.Context, cfg config, d, p, control *endpointSide) (*largeResult, error) {
	sides := []*endpointSide{d, p}
	if control != nil {
		sides = append(sides, control)
	}
	for _, e := range sides {
		if err := preparePage(ctx, e, cfg.Timeout); err != nil {
			return nil, fmt.Errorf("screenshot page: %w", err)
		}
	}
	timeout := 6 * cfg.Timeout // 10 MB through a busy 2-vCPU machine
	kinds := []transfer{stringTransfer("1 MB string", 1_000_000), stringTransfer("10 MB string", 10_000_000), screenshotTransfer()}
	res := &largeResult{}
	for _, k := range kinds {
		// one unmeasured transfer per side first
		for _, e := range sides {
			if k.before != nil {
				if err := k.before(ctx, e, cfg.Timeout); err != nil {
					return nil, fmt.Errorf("%s warm-up %s: %w", k.name, e.side, err)
				}
			}
			_, msg, err := timedCall(ctx, e.client, e.session, k.method, k.params, timeout)
			if err == nil {
				err = k.check(msg)
			}
			if err != nil {
				return nil, fmt.Errorf("%s warm-up %s: %w", k.name, e.side, err)
			}
		}
		tr := transferResult{Name: k.name, Rounds: cfg.LargeRuns}
		var durs [3][]time.Duration
		for _, st := range interleave(cfg.LargeRuns, 1, len(sides)) {
			e := sides[st.Side]
			if k.before != nil {
				if err := k.before(ctx, e, cfg.Timeout); err != nil {
					return nil, fmt.Errorf("%s %s: %w", k.name, e.side, err)
				}
			}
			dur, msg, err := timedCall(ctx, e.client, e.session, k.method, k.params, timeout)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", k.name, e.side, err)
			}
			mbps := float64(len(msg)) / 1e6 / dur.Seconds()
			durs[st.Side] = append(durs[st.Side], dur)
			switch st.Side {
			case sideDirect:
				tr.DirectMBps = append(tr.DirectMBps, mbps)
			case sideProxy:
				tr.ProxyMBps = append(tr.ProxyMBps, mbps)
				tr.Bytes = len(msg)
			default:
				tr.ControlMBps = append(tr.ControlMBps, mbps)
			}
		}
		tr.DirectMed = medianFloat(tr.DirectMBps)
		tr.ProxyMed = medianFloat(tr.ProxyMBps)
		tr.Ratio = ratio(tr.ProxyMed, tr.DirectMed)
		if control != nil {
			tr.ControlMed = medianFloat(tr.ControlMBps)
			tr.RelayRatio = ratio(tr.ProxyMed, tr.ControlMed)
		}
		tr.DirectMedMs = ms(median(durs[sideDirect]))
		tr.ProxyMedMs = ms(median(durs[sideProxy]))
		res.Transfers = append(res.Transfers, tr)
	}
	return res, nil
}
