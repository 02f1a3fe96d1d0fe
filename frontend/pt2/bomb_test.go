package pt2

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// deflated returns a deflate stream of head, then mib mebibytes of byte c, then tail, in time
// and memory proportional to its compressed size: once the window holds only c, every further
// mebibyte compresses to the same bytes, so the stream repeats that block instead of
// compressing it again (a 1 GiB bomb is built in milliseconds, about 1 MB).
func deflated(t testing.TB, head []byte, c byte, mib int, tail []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{c}, 1<<20)
	w.Write(head)
	if mib > 0 {
		w.Write(chunk)
	}
	w.Flush()
	if mib > 1 {
		start := buf.Len()
		w.Write(chunk)
		w.Flush()
		block := bytes.Clone(buf.Bytes()[start:])
		for i := 2; i < mib; i++ {
			buf.Write(block)
		}
	}
	w.Write(tail)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDeflatedHelper(t *testing.T) {
	z := deflated(t, []byte("{"), ' ', 5, []byte("}"))
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{" + strings.Repeat(" ", 5<<20) + "}"; string(got) != want {
		t.Fatalf("inflated %d bytes, want %d", len(got), len(want))
	}
}

// swap replaces one entry of an archive: body is its stored data, or, when deflate is set,
// its compressed stream whose header declares declared bytes (and crc).
type swap struct {
	body     []byte
	deflate  bool
	declared uint64
	crc      uint32
}

// honest deflates b with a header that tells the truth.
func honest(t testing.TB, b []byte) swap {
	return swap{body: deflated(t, b, 0, 0, nil), deflate: true, declared: uint64(len(b)), crc: crc32.ChecksumIEEE(b)}
}

// rezip rebuilds a zoo archive with the entries named by swaps (by path under the root) replaced.
func rezip(t testing.TB, model string, swaps map[string]swap) []byte {
	t.Helper()
	zr, err := zip.OpenReader(testutil.Testdata(t, "zoo", model, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		_, rel, _ := strings.Cut(f.Name, "/")
		s, ok := swaps[rel]
		if !ok {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			s = swap{body: b}
		}
		if !s.deflate {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(s.body)
			continue
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, CRC32: s.crc,
			CompressedSize64: uint64(len(s.body)), UncompressedSize64: s.declared})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(s.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zooEntry(t testing.TB, model, rel string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(testutil.Testdata(t, "zoo", model, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if _, r, _ := strings.Cut(f.Name, "/"); r == rel {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("%s has no entry %s", model, rel)
	return nil
}

// TestBombs: archives built to make Parse inflate far more than they hold. Before, an 864-byte
// weight inflating to 1 GiB lowered at 2.7 GB RSS and a 200 MiB JSON in a 220 KB archive cost
// 524 MB. Each is now refused, naming the entry, having allocated a few megabytes at most.
func TestBombs(t *testing.T) {
	const (
		weight  = "data/weights/weight_0"
		model   = "models/model.json"
		config  = "data/weights/model_weights_config.json"
		gib     = 1024 // MiB
		sizes   = `"sizes": [{"as_int": 8}, {"as_int": 3}, {"as_int": 3}, {"as_int": 3}]`
		strides = `"strides": [{"as_int": 27}, {"as_int": 9}, {"as_int": 3}, {"as_int": 1}]`
	)
	cfg := string(zooEntry(t, "conv_relu", config))
	js := zooEntry(t, "conv_relu", model)
	w := zooEntry(t, "conv_relu", weight)
	if !strings.Contains(cfg, sizes) || !strings.Contains(cfg, strides) || len(w) != 864 {
		t.Fatal("conv_relu's weights are not the 8x3x3x3 fp32 conv.weight this test edits")
	}
	// asVector makes conv.weight a 1-d tensor of n floats.
	asVector := func(cfg string, n string) string {
		cfg = strings.Replace(cfg, sizes, `"sizes": [{"as_int": `+n+`}]`, 1)
		return strings.Replace(cfg, strides, `"strides": [{"as_int": 1}]`, 1)
	}
	zeros := func(mib int) []byte { return deflated(t, nil, 0, mib, nil) }
	padded := func(mib int) []byte { return deflated(t, js[:len(js)-1], ' ', mib, []byte("}")) }
	// sharing names weight_0 from three 1 MiB tensors.
	var wc map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(asVector(cfg, "262144")), &wc); err != nil {
		t.Fatal(err)
	}
	wc["config"]["a"], wc["config"]["b"] = wc["config"]["conv.weight"], wc["config"]["conv.weight"]
	sharing, err := json.Marshal(wc)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		swaps map[string]swap
		words string // "" when the archive is fine
	}{
		{"weight deflated honestly", map[string]swap{weight: honest(t, w)}, ""},
		{"model JSON deflated honestly", map[string]swap{model: honest(t, js)}, ""},
		{"864-byte weight whose entry declares 1 GiB",
			map[string]swap{weight: {body: zeros(gib), deflate: true, declared: 1 << 30}},
			"entry data/weights/weight_0 inflates to 1073741824 bytes, the tensor needs 864"},
		{"864-byte weight whose entry declares 864 bytes and inflates to 1 GiB",
			map[string]swap{weight: {body: zeros(gib), deflate: true, declared: 864}},
			"entry data/weights/weight_0 inflates past the 864 bytes its header declares"},
		{"1 GiB weight over a 1 GiB bomb",
			map[string]swap{config: {body: []byte(asVector(cfg, "268435456"))}, weight: {body: zeros(gib), deflate: true, declared: 1 << 30}},
			"entry data/weights/weight_0: inflating its 1073741824 bytes (from 1061"},
		{"three 1 MiB tensors sharing one compressed entry",
			map[string]swap{config: {body: sharing}, weight: {body: zeros(1), deflate: true, declared: 1 << 20}},
			"over the budget for compressed entries"},
		{"200 MiB model JSON",
			map[string]swap{model: {body: padded(200), deflate: true, declared: uint64(len(js) + 200<<20)}},
			"entry models/model.json is 209719395 bytes, over the limit of 67108864"},
		{"48 MiB model JSON in a small archive",
			map[string]swap{model: {body: padded(48), deflate: true, declared: uint64(len(js) + 48<<20)}},
			"entry models/model.json: inflating its 50335843 bytes"},
		{"model JSON inflating past its declared size",
			map[string]swap{model: {body: padded(200), deflate: true, declared: uint64(len(js))}},
			"entry models/model.json inflates past the 4195 bytes its header declares"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := rezip(t, "conv_relu", tc.swaps)
			var err error
			n := testutil.Allocated(func() { _, err = Parse(data) })
			if tc.words == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.words) {
				t.Errorf("Parse (%d-byte archive): %v\nwant ErrInvalid mentioning %q", len(data), err, tc.words)
			}
			if n > 8<<20 {
				t.Errorf("Parse allocated %d bytes refusing a %d-byte archive", n, len(data))
			}
		})
	}
}

// TestOpenRefuses: Open reads a whole file, so it takes only regular files within
// MaxArchiveBytes; /dev/zero grew to gigabytes and a FIFO blocked.
func TestOpenRefuses(t *testing.T) {
	for _, bp := range testutil.BadPaths(t) {
		t.Run(bp.Name, func(t *testing.T) {
			var err error
			n := testutil.Allocated(func() { _, err = Open(bp.Path) })
			if !errors.Is(err, ErrNotRegularFile) || !strings.Contains(err.Error(), bp.Kind) || !strings.Contains(err.Error(), bp.Path) {
				t.Errorf("Open(%s): %v, want ErrNotRegularFile naming it and %q", bp.Path, err, bp.Kind)
			}
			if n > 1<<20 {
				t.Errorf("Open allocated %d bytes refusing it", n)
			}
		})
	}
	t.Run("sparse file over MaxArchiveBytes", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "huge.pt2")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		err = f.Truncate(MaxArchiveBytes + 1)
		f.Close()
		if err != nil {
			t.Skipf("no sparse files here: %v", err)
		}
		var oerr error
		n := testutil.Allocated(func() { _, oerr = Open(p) })
		if !errors.Is(oerr, ErrTooLarge) || !strings.Contains(oerr.Error(), p) {
			t.Errorf("Open: %v, want ErrTooLarge naming the path", oerr)
		}
		if n > 1<<20 {
			t.Errorf("Open allocated %d bytes", n)
		}
	})
}
