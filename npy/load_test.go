package npy

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestLoadBombsAndDevices: Load once read any path whole (/dev/zero grew to gigabytes). Now it
// reads through Read's bounds: a device or FIFO as a stream, a regular file no further than its
// header declares and its size allows, nothing past MaxReadBytes. Each case allocates at most a
// few kilobytes whatever its header claims.
func TestLoadBombsAndDevices(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// stream serves b, then zeros without end, to whoever opens a FIFO.
	stream := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		testutil.Mkfifo(t, p)
		go func() {
			w, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer w.Close()
			if _, err := w.Write(b); err != nil {
				return
			}
			zeros := make([]byte, 64<<10)
			for {
				if _, err := w.Write(zeros); err != nil {
					return // the reader has closed: EPIPE
				}
			}
		}()
		return p
	}
	header := func(shape string) []byte {
		return preamble("{'descr': '<f4', 'fortran_order': False, 'shape': "+shape+", }\n", nil)
	}
	const budget = 1 << 20
	type tcase struct {
		name  string
		path  string
		want  error
		words string
	}
	cases := []tcase{
		{"file declaring 1 GiB, holding 8 bytes", file("liar.npy", append(header("(268435456,)"), make([]byte, 8)...)), ErrFormat, "needs 1073741824"},
		{"file declaring 8 GiB", file("huge.npy", header("(2147483648,)")), ErrTooLarge, "over the limit"},
		{"FIFO declaring 8 GiB, then zeros", stream("huge.fifo", header("(2147483648,)")), ErrTooLarge, "over the limit"},
		{"FIFO with a 16-byte payload, then zeros", stream("long.fifo", append(header("(4,)"), make([]byte, 16)...)), ErrFormat, "trailing bytes"},
		{"directory", dir, ErrNotRegularFile, "a directory"},
	}
	for _, bp := range testutil.BadPaths(t) {
		switch bp.Name {
		case "zero":
			cases = append(cases, tcase{"dev_zero", bp.Path, ErrFormat, "magic"})
		case "null":
			cases = append(cases, tcase{"dev_null", bp.Path, ErrFormat, "truncated preamble"})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			n := testutil.Allocated(func() { _, err = Load(tc.path) })
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.words) || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("Load: %v, want %v naming the path and mentioning %q", err, tc.want, tc.words)
			}
			if n > budget {
				t.Errorf("Load allocated %d bytes refusing it, over %d", n, budget)
			}
		})
	}
}

// TestLoadStream: a FIFO carrying a valid file loads like the file (etgo run --input <(...)).
func TestLoadStream(t *testing.T) {
	want, err := FromValues([]int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	b, err := want.Encode()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "in.fifo")
	testutil.Mkfifo(t, p)
	go func() {
		if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			w.Write(b)
			w.Close()
		}
	}()
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.DType != want.DType || !slices.Equal(got.Shape, want.Shape) || string(got.Data) != string(want.Data) {
		t.Errorf("got %s%v", got.DType, got.Shape)
	}
}

// TestReadGrowsWithTheStream: a header declaring 1 GiB over a stream that ends after 1 KiB costs
// what the stream sent, not what the header said.
func TestReadGrowsWithTheStream(t *testing.T) {
	r := io.MultiReader(strings.NewReader(string(preamble("{'descr': '|u1', 'fortran_order': False, 'shape': (1073741824,), }\n", nil))), strings.NewReader(strings.Repeat("x", 1024)))
	var err error
	n := testutil.Allocated(func() { _, err = Read(r) })
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "payload is 1024 bytes") {
		t.Errorf("Read: %v", err)
	}
	if n > 1<<20 {
		t.Errorf("Read allocated %d bytes for a 1 KiB stream", n)
	}
}
