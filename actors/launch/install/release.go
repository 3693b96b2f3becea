package install

import "errors"

// release is one build to download.
type release struct {
	product  string // chrome, chrome-headless-shell, chromium
	channel  string // stable, beta, dev, canary; snapshot for chromium
	version  string // 131.0.6778.85, or a snapshot revision
	platform string // the source's platform key: linux64, Linux_x64, …
	url      string // the zip
	exe      string // the executable inside the zip, slash-separated
}

func asStatus(err error, target **StatusError) bool { return errors.As(err, target) }
