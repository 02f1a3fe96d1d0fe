package xnngraph_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/xnntest"
)

// TestZooBlobs: every official blob parses (package xnnpack's TestZooPlans builds their plans).
func TestZooBlobs(t *testing.T) {
	blobs, _ := xnntest.Blobs(t)
	for i, b := range blobs {
		g, err := xnngraph.ParseBlob(b)
		if err != nil {
			t.Fatalf("blob %d: %v", i, err)
		}
		if !g.HasHeader || len(g.Nodes) == 0 || len(g.Values) == 0 {
			t.Errorf("blob %d: header %v, %d nodes, %d values", i, g.HasHeader, len(g.Nodes), len(g.Values))
		}
	}
}

func patchAt(b []byte, at int, v []byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[at:], v)
	return out
}

func TestBadBlobs(t *testing.T) {
	blobs, _ := xnntest.Blobs(t)
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
			_, err := xnngraph.ParseBlob(tc.blob)
			if !errors.Is(err, xnngraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

// internal returns a graph's first value that is neither a graph input nor an output.
func internal(g *xnngraph.Graph) *xnngraph.Value {
	for i := range g.Values {
		if g.Values[i].Flags == 0 {
			return &g.Values[i]
		}
	}
	panic("no internal value")
}

// TestGraphValidation corrupts decoded graphs and checks validate names the problem.
func TestGraphValidation(t *testing.T) {
	blobs, _ := xnntest.Blobs(t)
	blob := blobs[0]
	for _, b := range blobs { // one with a value that is neither a graph input nor an output
		if g, err := xnngraph.ParseBlob(b); err == nil && slices.ContainsFunc(g.Values, func(v xnngraph.Value) bool { return v.Flags == 0 }) {
			blob = b
			break
		}
	}
	for _, tc := range []struct {
		name   string
		mutate func(g *xnngraph.Graph)
		want   string
	}{
		{"duplicate id", func(g *xnngraph.Graph) { g.Values[1].ID = g.Values[0].ID }, "appears twice"},
		{"missing operand", func(g *xnngraph.Graph) { g.Nodes[0].Inputs[0] = 123456 }, "does not exist"},
		{"too many dims", func(g *xnngraph.Graph) { g.Values[0].Dims = make([]uint32, 7) }, "exceed 6"},
		{"huge dims", func(g *xnngraph.Graph) { internal(g).Dims = []uint32{1 << 30, 1 << 30} }, "more than 268435456 elements"},
		{"external id past num_externs", func(g *xnngraph.Graph) { internal(g).ExternalID = g.NumExterns }, "out of range"},
		{"output range", func(g *xnngraph.Graph) { g.Nodes[0].OutputMin, g.Nodes[0].OutputMax = 1, 0 }, "is not a range"},
		{"unknown flags", func(g *xnngraph.Graph) { g.Values[0].Flags = 4 }, "unknown flags"},
		{"constant out of range", func(g *xnngraph.Graph) { g.Values[0].Flags, g.Values[0].ConstantIdx = 0, 999 }, "constant 999 out of range"},
		{"too many externs", func(g *xnngraph.Graph) { g.NumExterns = 5000 }, "num_externs 5000"},
		{"unknown node", func(g *xnngraph.Graph) { g.Nodes[0].Op = 200 }, "unknown node type 200"},
	} {
		g, err := xnngraph.ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(g)
		if err := g.Validate(); !errors.Is(err, xnngraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// FuzzParseBlob: no blob panics the parser or the encoder (package xnnpack's FuzzPlan fuzzes
// the plan builder).
func FuzzParseBlob(f *testing.F) {
	blobs, _ := xnntest.Blobs(f)
	for _, b := range blobs {
		if len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := xnngraph.ParseBlob(b)
		if err != nil {
			return
		}
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
		g2, err := xnngraph.ParseBlob(enc)
		if err != nil {
			t.Fatalf("re-encoded blob does not parse: %v", err)
		}
		enc2, err := g2.Encode()
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point (%v)", err)
		}
	})
}
