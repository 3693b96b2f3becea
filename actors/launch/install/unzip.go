package install

import (
	"archive/zip"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxUnzipped caps what one zip may expand to (Chrome for Testing is about
// 400 MB unzipped): a zip bomb fails instead of filling the disk.
const maxUnzipped = 4 << 30

// unzip extracts the zip at src into dir (which must exist and be empty).
// Nothing is written outside dir: entries with absolute paths or ".."
// elements are refused, symbolic links (macOS app bundles have them) must
// point inside the tree and are made last, so no file is ever written
// through one. Executable bits are kept; every file's CRC-32 is checked.
func unzip(src, dir string) error {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return fmt.Errorf("not a valid zip archive (%w)", err)
	}
	defer zr.Close()
	var links []*zip.File
	var total int64
	for _, f := range zr.File {
		name, err := entryPath(f.Name)
		if err != nil {
			return err
		}
		if name == "" {
			continue // the "./" entry some tools write
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch mode := f.Mode(); {
		case mode&fs.ModeSymlink != 0:
			links = append(links, f)
		case mode.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case mode.IsRegular():
			n, err := writeEntry(f, target, maxUnzipped-total)
			if err != nil {
				return err
			}
			total += n
		default:
			return fmt.Errorf("zip entry %q: unsupported file type %s", f.Name, mode.Type())
		}
	}
	for _, f := range links {
		if err := makeLink(f, dir); err != nil {
			return err
		}
	}
	return nil
}

// entryPath checks a zip entry's name and returns it cleaned, relative, with
// slashes; "" for the archive's root.
func entryPath(name string) (string, error) {
	if strings.Contains(name, `\`) || path.IsAbs(name) || filepath.VolumeName(name) != "" {
		return "", fmt.Errorf("zip entry %q: absolute or backslashed path refused", name)
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == ".." {
			return "", fmt.Errorf("zip entry %q: a \"..\" element would write outside the install directory", name)
		}
	}
	clean := path.Clean(name)
	if clean == "." {
		return "", nil
	}
	if !filepath.IsLocal(filepath.FromSlash(clean)) {
		return "", fmt.Errorf("zip entry %q: not a local path", name)
	}
	return clean, nil
}

// writeEntry writes one regular file, at most limit bytes; the zip reader
// checks the CRC-32 when the copy reaches the end.
func writeEntry(f *zip.File, target string, limit int64) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return 0, err
	}
	perm := os.FileMode(0o644)
	if f.Mode().Perm()&0o111 != 0 {
		perm = 0o755
	}
	rc, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, io.LimitReader(rc, limit+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, zip.ErrChecksum), errors.Is(err, zip.ErrFormat), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &corrupt):
		return n, fmt.Errorf("zip entry %q is damaged (%w)", f.Name, err)
	case err != nil:
		return n, fmt.Errorf("zip entry %q: %w", f.Name, err)
	case n > limit:
		return n, fmt.Errorf("the zip expands to more than %s: refused", sizeText(maxUnzipped))
	}
	return n, nil
}

// makeLink creates a symbolic link entry after checking that it points
// inside the tree and that no directory on its way is itself a link.
func makeLink(f *zip.File, dir string) error {
	name, _ := entryPath(f.Name) // checked in unzip
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	raw, err := io.ReadAll(io.LimitReader(rc, 4096))
	rc.Close()
	if err != nil {
		return fmt.Errorf("zip entry %q: %w", f.Name, err)
	}
	dest := string(raw)
	if dest == "" || path.IsAbs(dest) || strings.Contains(dest, `\`) || !filepath.IsLocal(filepath.FromSlash(path.Join(path.Dir(name), dest))) {
		return fmt.Errorf("zip entry %q: link to %q points outside the install directory", f.Name, dest)
	}
	// Each directory on the way must be a real one: a link under a link
	// could land anywhere.
	at := dir
	for _, elem := range strings.Split(path.Dir(name), "/") {
		if elem == "." {
			break
		}
		at = filepath.Join(at, elem)
		info, err := os.Lstat(at)
		if err != nil {
			if err := os.MkdirAll(at, 0o755); err != nil {
				return err
			}
			continue
		}
		if !info.IsDir() {
			return fmt.Errorf("zip entry %q: %s is not a directory", f.Name, at)
		}
	}
	return os.Symlink(filepath.FromSlash(dest), filepath.Join(dir, filepath.FromSlash(name)))
}
