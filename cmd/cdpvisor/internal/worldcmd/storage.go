package worldcmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// export is `world export NAME [--output FILE]`: the world's storage
// state, Playwright's JSON, on stdout or in FILE (private: it holds
// sign-ins).
func export(ctx context.Context, t state.Target, o Options, stdout, stderr io.Writer) error {
	data, err := worldapi.Export(ctx, t.Endpoint, o.Name)
	if err != nil {
		return asked(t, err)
	}
	st, err := storagestate.Parse(data)
	if err != nil {
		return fmt.Errorf("%s answered world %s's export with what is not a storage state: %w", who(t), o.Name, err)
	}
	if o.Output == "" {
		_, err = stdout.Write(data)
		return err
	}
	if err := writePrivate(o.Output, data); err != nil {
		return fmt.Errorf("--output %s: %w", o.Output, err)
	}
	cookies, origins := st.Counts()
	fmt.Fprintf(stderr, "cdpvisor world: wrote world %s's storage state to %s: %d cookie(s), localStorage of %d origin(s)\n", o.Name, o.Output, cookies, origins)
	return nil
}

// writePrivate writes data to path, readable by its owner alone.
func writePrivate(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil { // a file that was there keeps its mode otherwise
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// forget is `world close NAME --forget`: the world closed if it is open,
// and its profile deleted.
func forget(ctx context.Context, t state.Target, name string, stdout io.Writer) error {
	had, err := worldapi.Forget(ctx, t.Endpoint, name)
	if err != nil {
		return asked(t, err)
	}
	closed := "it was not open"
	if had.Open {
		closed = fmt.Sprintf("%d client connection(s) and %d page(s) closed, its port closed", had.Clients, had.Pages)
	}
	_, err = fmt.Fprintf(stdout, "forgot world %s: %s; its kept cookies, localStorage and network policy are deleted\n", name, closed)
	return err
}
