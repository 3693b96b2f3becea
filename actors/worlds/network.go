package worlds

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's Network as the requests, the lists and the kept file carry it
// (worldapi.Policy), read and compared.

// ErrBadPolicy refuses a world's network policy that cannot be read,
// before anything is made.
var ErrBadPolicy = errors.New("not a network policy")

// ErrFilesNeedGuard: folders given to a world without a guard, which
// reaches every file of its owner already.
var ErrFilesNeedGuard = errors.New("allow_files needs allow_hosts, deny_hosts or proxy: a world without a guard already reaches every file of its owner")

// NetworkOf reads a world's policy, upstream proxy and folders (the HTTP
// body's, the MCP tool's, the kept file's); none when it has none. Its
// errors name every pattern and folder it cannot read, and a proxy's URL
// never (it may hold a password). Folders must be absolute and clean:
// the edges resolve them first (Folders).
func NetworkOf(p worldapi.Policy) (Network, error) {
	var n Network
	var errs []error
	if p.Guarded() {
		pol, err := guard.ParsePolicy(p.AllowHosts, p.DenyHosts)
		if err != nil {
			errs = append(errs, err)
		}
		n.Policy = pol
	}
	if p.Proxy != "" {
		up, err := guard.ParseUpstream(p.Proxy)
		if err != nil {
			errs = append(errs, fmt.Errorf("proxy: %w", err))
		}
		n.Upstream = up
	}
	if len(p.AllowFiles) > 0 && !p.Guarded() && p.Proxy == "" {
		errs = append(errs, ErrFilesNeedGuard)
	}
	for _, f := range p.AllowFiles {
		if !filepath.IsAbs(f) || filepath.Clean(f) != f {
			errs = append(errs, fmt.Errorf("allow_files: %q is not an absolute, clean path", f))
		}
	}
	n.Files = slices.Clone(p.AllowFiles)
	if len(errs) > 0 {
		return Network{}, fmt.Errorf("%w: %w", ErrBadPolicy, errors.Join(errs...))
	}
	return n, nil
}

// Folders resolves the folders given for a world's files (what names
// them in errors: --allow-file, allow_files) as every path a user gives
// is (launch.UserPath: ~ is the home, a relative path the working
// directory's); each must be a directory that exists.
func Folders(what string, given []string) ([]string, error) {
	var out []string
	var errs []error
	for _, g := range given {
		if strings.TrimSpace(g) == "" {
			errs = append(errs, fmt.Errorf("%s is empty: give a folder whose files the world's pages may get", what))
			continue
		}
		abs, err := launch.UserPath(what, g)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		info, err := os.Stat(abs)
		switch {
		case errors.Is(err, os.ErrNotExist):
			errs = append(errs, fmt.Errorf("%s %s: %s does not exist; make the folder first, or give one that exists", what, g, abs))
		case err != nil:
			errs = append(errs, fmt.Errorf("%s %s: %w", what, g, err))
		case !info.IsDir():
			errs = append(errs, fmt.Errorf("%s %s: %s is not a folder; give the folder that holds the files", what, g, abs))
		default:
			out = append(out, abs)
		}
	}
	return out, errors.Join(errs...)
}

// kept is the network as its kept file holds it: the proxy with its
// credentials (the file is private), the folders.
func (n Network) kept() worldapi.Policy {
	return worldapi.Policy{AllowHosts: n.Policy.AllowHosts(), DenyHosts: n.Policy.DenyHosts(),
		Proxy: n.Upstream.WithCredentials(), AllowFiles: slices.Clone(n.Files)}
}

// info is the network as the lists show it (the proxy without its
// credentials), without counts.
func (n Network) info() *PolicyInfo {
	return &PolicyInfo{AllowHosts: n.Policy.AllowHosts(), DenyHosts: n.Policy.DenyHosts(), Proxy: n.Upstream.Redacted(), AllowFiles: n.Files}
}

// differs says how given differs from kept, field by field ("" when it
// does not): the lists in any order, the proxy with its credentials
// (said without them).
func (n Network) differs(given Network) string {
	k, g := n.kept(), given.kept()
	var out []string
	for _, f := range []struct {
		name       string
		kept, give []string
	}{
		{"allow_hosts", k.AllowHosts, g.AllowHosts}, {"deny_hosts", k.DenyHosts, g.DenyHosts}, {"allow_files", k.AllowFiles, g.AllowFiles},
	} {
		if !slices.Equal(slices.Sorted(slices.Values(f.kept)), slices.Sorted(slices.Values(f.give))) {
			out = append(out, fmt.Sprintf("%s kept %s, given %s", f.name, listed(f.kept), listed(f.give)))
		}
	}
	switch kp, gp := n.Upstream.Redacted(), given.Upstream.Redacted(); {
	case k.Proxy == g.Proxy:
	case kp == gp:
		out = append(out, "proxy kept "+kp+", given the same with other credentials")
	default:
		out = append(out, fmt.Sprintf("proxy kept %s, given %s", orNone(kp), orNone(gp)))
	}
	return strings.Join(out, "; ")
}

func listed(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return "[" + strings.Join(l, " ") + "]"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
