package xnnpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// zooBlobs returns every delegate blob of the zoo's and testdata/quant's xnnpack.pte files with
// the file's named data.
func zooBlobs(t testing.TB) (blobs [][]byte, named []func(string) ([]byte, error)) {
	t.Helper()
	files, _ := filepath.Glob(testutil.Testdata(t, "zoo", "*", "xnnpack.pte"))
	quant, _ := filepath.Glob(testutil.Testdata(t, "quant", "*", "xnnpack.pte")) // quantized graphs too
	files = append(files, quant...)
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pte.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Program.ExecutionPlans[0].Delegates {
			b, err := f.DelegateData(&d)
			if err != nil {
				t.Fatal(err)
			}
			blobs = append(blobs, b)
			named = append(named, f.NamedData)
		}
	}
	if len(blobs) < 10 {
		t.Fatalf("only %d blobs in the zoo", len(blobs))
	}
	return blobs, named
}

// TestZooBlobs: every official blob parses, and every node and value is one the plan supports.
func TestZooBlobs(t *testing.T) {
	blobs, named := zooBlobs(t)
	for i, b := range blobs {
		g, err := ParseBlob(b)
		if err != nil {
			t.Fatalf("blob %d: %v", i, err)
		}
		if !g.HasHeader || len(g.Nodes) == 0 || len(g.Values) == 0 {
			t.Errorf("blob %d: header %v, %d nodes, %d values", i, g.HasHeader, len(g.Nodes), len(g.Values))
		}
		if _, err := newPlan(g, named[i]); err != nil {
			t.Errorf("blob %d: %v", i, err)
		}
	}
}

func patchAt(b []byte, at int, v []byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[at:], v)
	return out
}

func TestBadBlobs(t *testing.T) {
	blobs, _ := zooBlobs(t)
	good := blobs[0]
	le := binary.LittleEndian
	fbOff := int(le.Uint32(good[10:]))
	for _, tc := range []struct {
		name string
		blob []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"truncated header", good[:20], "header needs 30 bytes"},
		{"flatbuffer past the end", patchAt(good, 14, le.AppendUint32(nil, 1<<30)), "runs past the blob"},
		{"constant data past the end", patchAt(good, 22, le.AppendUint64(nil, 1<<40)), "constant data"},
		{"flatbuffer too small", patchAt(good, 14, le.AppendUint32(nil, 4)), "below 8"},
		{"wrong identifier", patchAt(good, fbOff+4, []byte("ZZ99")), `identifier "ZZ99"`},
		{"bad root offset", patchAt(good, fbOff, le.AppendUint32(nil, 0xffffff00)), "flatbuffer"},
		{"truncated flatbuffer", good[:fbOff+64], "runs past the blob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBlob(tc.blob)
			if !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

// internal returns a graph's first value that is neither a graph input nor an output.
func internal(g *Graph) *Value {
	for i := range g.Values {
		if g.Values[i].Flags == 0 {
			return &g.Values[i]
		}
	}
	panic("no internal value")
}

// TestGraphValidation corrupts decoded graphs and checks validate names the problem.
func TestGraphValidation(t *testing.T) {
	blobs, _ := zooBlobs(t)
	blob := blobs[0]
	for _, b := range blobs { // one with a value that is neither a graph input nor an output
		if g, err := ParseBlob(b); err == nil && slices.ContainsFunc(g.Values, func(v Value) bool { return v.Flags == 0 }) {
			blob = b
			break
		}
	}
	for _, tc := range []struct {
		name   string
		mutate func(g *Graph)
		want   string
	}{
		{"duplicate id", func(g *Graph) { g.Values[1].ID = g.Values[0].ID }, "appears twice"},
		{"missing operand", func(g *Graph) { g.Nodes[0].Inputs[0] = 123456 }, "does not exist"},
		{"too many dims", func(g *Graph) { g.Values[0].Dims = make([]uint32, 7) }, "exceed 6"},
		{"huge dims", func(g *Graph) { internal(g).Dims = []uint32{1 << 30, 1 << 30} }, "more than 268435456 elements"},
		{"external id past num_externs", func(g *Graph) { internal(g).ExternalID = g.NumExterns }, "out of range"},
		{"output range", func(g *Graph) { g.Nodes[0].OutputMin, g.Nodes[0].OutputMax = 1, 0 }, "is not a range"},
		{"unknown flags", func(g *Graph) { g.Values[0].Flags = 4 }, "unknown flags"},
		{"constant out of range", func(g *Graph) { g.Values[0].Flags, g.Values[0].ConstantIdx = 0, 999 }, "constant 999 out of range"},
		{"too many externs", func(g *Graph) { g.NumExterns = 5000 }, "num_externs 5000"},
		{"unknown node", func(g *Graph) { g.Nodes[0].Op = 200 }, "unknown node type 200"},
	} {
		g, err := ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(g)
		if err := g.validate(); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// FuzzParseBlob: no blob panics the parser or the plan builder.
func FuzzParseBlob(f *testing.F) {
	blobs, _ := zooBlobs(f)
	for _, b := range blobs {
		if len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := ParseBlob(b)
		if err != nil {
			return
		}
		_, _ = newPlan(g, func(string) ([]byte, error) { return nil, errors.New("no named data") })
		// Whatever parses re-encodes (unless quantized, which Encode refuses) to a blob that
		// parses and re-encodes to the same bytes (bitwise, so NaN parameters compare too).
		// Header-less blobs and deprecated constant buffers are not written by Encode.
		if !g.HasHeader || len(g.Deprecated) > 0 {
			return
		}
		enc, err := g.Encode()
		if err != nil {
			return
		}
		g2, err := ParseBlob(enc)
		if err != nil {
			t.Fatalf("re-encoded blob does not parse: %v", err)
		}
		enc2, err := g2.Encode()
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point (%v)", err)
		}
	})
}
