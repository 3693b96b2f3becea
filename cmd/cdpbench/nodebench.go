package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// runNodeBench runs one of testdata/clients' bench scripts (in dir) on a
// configuration written under root, and answers what it printed on
// stdout; its stderr is passed on (progress) or kept for the error.
func runNodeBench(ctx context.Context, dir, root, script string, conf map[string]any, progress bool) ([]byte, error) {
	data, err := json.Marshal(conf)
	if err != nil {
		return nil, err
	}
	confFile := filepath.Join(root, strings.TrimSuffix(strings.TrimPrefix(script, "bench_"), ".mjs")+".json")
	if err := os.WriteFile(confFile, data, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, script), confFile)
	cmd.Dir = dir
	if progress {
		cmd.Stderr = os.Stderr
	}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return nil, fmt.Errorf("%s: %w: %s", script, err, tail(string(ee.Stderr), 1500))
		}
		return nil, fmt.Errorf("%s: %w", script, err)
	}
	return out, nil
}
