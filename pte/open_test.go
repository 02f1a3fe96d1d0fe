package pte

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestOpenRefusesNonRegular: a device never ends (/dev/zero grew to gigabytes when it was read
// whole), a FIFO blocks its reader until a writer comes, a directory has no bytes. Open refuses
// each, before opening it, naming what it is.
func TestOpenRefusesNonRegular(t *testing.T) {
	for _, bp := range testutil.BadPaths(t) {
		t.Run(bp.Name, func(t *testing.T) {
			var f *File
			var err error
			n := testutil.Allocated(func() { f, err = Open(bp.Path) })
			if err == nil {
				f.Close()
			}
			if n > 1<<20 {
				t.Errorf("Open allocated %d bytes refusing it", n)
			}
			if !errors.Is(err, ErrNotRegularFile) || !strings.Contains(err.Error(), bp.Kind) || !strings.Contains(err.Error(), bp.Path) {
				t.Errorf("Open(%s): %v, want ErrNotRegularFile naming the path and %q", bp.Path, err, bp.Kind)
			}
		})
	}
}

func TestOpenSmallFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotProgram},
		{"short", []byte("PK\x03\x04"), ErrNotProgram},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Open(p)
			if err == nil {
				f.Close()
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("Open: %v, want %v naming the path", err, tc.want)
			}
		})
	}
}

// TestReadFileFallback runs the read-whole path that platforms without mmap take.
func TestReadFileFallback(t *testing.T) {
	p := filepath.Join(t.TempDir(), "add.pte")
	if err := os.WriteFile(p, mustWrite(t, goodProgram()), 0o644); err != nil {
		t.Fatal(err)
	}
	b, release, err := readFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := Parse(b); err != nil {
		t.Fatal(err)
	}
	// The fallback, too, reads only regular files.
	for _, bp := range testutil.BadPaths(t) {
		if _, _, err := readFile(bp.Path); !errors.Is(err, ErrNotRegularFile) {
			t.Errorf("readFile(%s): %v, want ErrNotRegularFile", bp.Name, err)
		}
	}
}
