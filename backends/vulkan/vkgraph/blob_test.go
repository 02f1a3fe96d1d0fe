package vkgraph_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/internal/vktest"
)

// TestOfficialBlobsRoundTrip: every official blob parses, and re-encodes to the same bytes —
// Encode lays the flatbuffer out as flatc does from the official writer's JSON.
func TestOfficialBlobsRoundTrip(t *testing.T) {
	for _, b := range vktest.Blobs(t) {
		g, err := vkgraph.ParseBlob(b.Data)
		if err != nil {
			t.Errorf("%s delegate %d: %v", b.File, b.Index, err)
			continue
		}
		if len(g.Chain) == 0 || len(g.Values) == 0 {
			t.Errorf("%s delegate %d: %d operators, %d values", b.File, b.Index, len(g.Chain), len(g.Values))
		}
		enc, err := g.Encode()
		if err != nil {
			t.Errorf("%s delegate %d: encode: %v", b.File, b.Index, err)
			continue
		}
		if !bytes.Equal(enc, b.Data) {
			t.Errorf("%s delegate %d: re-encoded blob differs from the official one (%d vs %d bytes, first difference at %d)",
				b.File, b.Index, len(enc), len(b.Data), firstDiff(enc, b.Data))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestSpecMatchesFBS(t *testing.T) {
	raw, err := os.ReadFile("../schema/vulkan.fbs")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range vkgraph.FbverifyCompare(string(raw)) {
		t.Error(d)
	}
}

func patchAt(b []byte, at int, v []byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[at:], v)
	return out
}

func TestBadBlobs(t *testing.T) {
	good := vktest.Blobs(t)[0].Data
	le := binary.LittleEndian
	fbOff := int(le.Uint32(good[10:]))
	for _, tc := range []struct {
		name string
		blob []byte
		want string
	}{
		{"empty", nil, "header needs 30 bytes"},
		{"truncated header", good[:20], "header needs 30 bytes"},
		{"no magic", patchAt(good, 4, []byte("XH00")), `header magic "XH00"`},
		{"short header size", patchAt(good, 8, le.AppendUint16(nil, 12)), "header size 12"},
		{"flatbuffer inside header", patchAt(good, 10, le.AppendUint32(nil, 8)), "inside the 30-byte header"},
		{"empty flatbuffer", patchAt(good, 14, le.AppendUint32(nil, 0)), "flatbuffer is empty"},
		{"flatbuffer past the end", patchAt(patchAt(good, 14, le.AppendUint32(nil, 1<<30)), 18, le.AppendUint32(nil, 1<<31)), "runs past the blob"},
		{"constants before the flatbuffer's end", patchAt(good, 18, le.AppendUint32(nil, 40)), "does not start after the flatbuffer"},
		{"constant data past the end", patchAt(good, 22, le.AppendUint64(nil, 1<<40)), "constant data"},
		{"wrong identifier", patchAt(good, fbOff+4, []byte("ZZ99")), `identifier "ZZ99"`},
		{"bad root offset", patchAt(good, fbOff, le.AppendUint32(nil, 0xffffff00)), "flatbuffer"},
		{"truncated flatbuffer", good[:fbOff+64], "runs past the blob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := vkgraph.ParseBlob(tc.blob)
			if !errors.Is(err, vkgraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidBlob mentioning %q", err, tc.want)
			}
		})
	}
}

func firstTensor(g *vkgraph.Graph) *vkgraph.Tensor {
	for i := range g.Values {
		if g.Values[i].Tensor != nil {
			return g.Values[i].Tensor
		}
	}
	panic("no tensor")
}

// TestGraphValidation corrupts decoded graphs and checks Validate names the problem.
func TestGraphValidation(t *testing.T) {
	blob := vktest.Blobs(t)[0].Data
	for _, tc := range []struct {
		name   string
		mutate func(g *vkgraph.Graph)
		want   string
	}{
		{"argument out of range", func(g *vkgraph.Graph) { g.Chain[0].Args[0] = 99999 }, "argument 0 is value 99999"},
		{"negative argument", func(g *vkgraph.Graph) { g.Chain[0].Args[0] = -1 }, "argument 0 is value -1"},
		{"nameless operator", func(g *vkgraph.Graph) { g.Chain[0].Name = "" }, "without a name"},
		{"input out of range", func(g *vkgraph.Graph) { g.InputIDs[0] = 1 << 20 }, "input_ids[0] is value 1048576"},
		{"output not a tensor", func(g *vkgraph.Graph) {
			g.Values = append(g.Values, vkgraph.Value{Kind: schema.GraphTypesInt})
			g.OutputIDs[0] = uint32(len(g.Values) - 1)
		}, "is a Int, not a tensor"},
		{"too many dims", func(g *vkgraph.Graph) { firstTensor(g).Dims = make([]uint32, 9) }, "9 dims"},
		{"overflowing dims", func(g *vkgraph.Graph) { firstTensor(g).Dims = []uint32{1 << 31, 1 << 31, 1 << 31} }, "overflows"},
		{"constant id out of range", func(g *vkgraph.Graph) { firstTensor(g).ConstantID = int32(len(g.Constants)) }, "constant id"},
		{"memory object id", func(g *vkgraph.Graph) { firstTensor(g).MemObjID = -2 }, "memory object id -2"},
		{"unknown datatype", func(g *vkgraph.Graph) { firstTensor(g).DType = 42 }, "datatype"},
		{"constant past the region", func(g *vkgraph.Graph) {
			g.Constants = append(g.Constants, vkgraph.Bytes{Offset: uint64(len(g.ConstantRegion)), Length: 64, HasKey: true})
		}, "runs past the constant region"},
		{"constant tensor larger than its data", func(g *vkgraph.Graph) {
			g.ConstantRegion = make([]byte, 16)
			g.Constants = append(g.Constants, vkgraph.Bytes{Offset: 0, Length: 16, HasKey: true})
			t := firstTensor(g)
			t.ConstantID, t.Dims = int32(len(g.Constants)-1), []uint32{1024}
		}, "runs past the constant region"},
		{"constant tensor past the region", func(g *vkgraph.Graph) {
			g.Constants = append(g.Constants, vkgraph.Bytes{Offset: uint64(len(g.ConstantRegion)), HasKey: true})
			t := firstTensor(g)
			t.ConstantID, t.Dims = int32(len(g.Constants)-1), []uint32{0}
		}, "outside the constant region"},
		{"value list item", func(g *vkgraph.Graph) {
			g.Values = append(g.Values, vkgraph.Value{Kind: schema.GraphTypesValueList, ValueList: []int32{0, 77777}})
		}, "list item 1 is value 77777"},
		{"empty value", func(g *vkgraph.Graph) { g.Values = append(g.Values, vkgraph.Value{}) }, "no value"},
		{"custom shaders", func(g *vkgraph.Graph) { g.Shaders = []vkgraph.Bytes{{}} }, "custom shaders"},
	} {
		g, err := vkgraph.ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(g)
		if err := g.Validate(); !errors.Is(err, vkgraph.ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
		if _, err := g.Encode(); err == nil {
			t.Errorf("%s: Encode wrote an invalid graph", tc.name)
		}
	}
}

// TestDescribe counts the official blobs' operators.
func TestDescribe(t *testing.T) {
	for _, b := range vktest.Blobs(t) {
		ops, values, err := vkgraph.Describe(b.Data)
		if err != nil || len(ops) == 0 || values == 0 {
			t.Errorf("%s delegate %d: %v, %d values, %v", b.File, b.Index, ops, values, err)
		}
	}
	if _, _, err := vkgraph.Describe([]byte("garbage")); !errors.Is(err, vkgraph.ErrInvalidBlob) {
		t.Errorf("garbage: %v", err)
	}
}

// FuzzParseBlob: no blob panics the parser or the encoder, and whatever parses re-encodes to a
// blob that parses and re-encodes to the same bytes.
func FuzzParseBlob(f *testing.F) {
	for _, b := range vktest.Blobs(f) {
		if len(b.Data) < 16<<10 {
			f.Add(b.Data)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := vkgraph.ParseBlob(b)
		if err != nil {
			return
		}
		_, _, _ = vkgraph.Describe(b)
		enc, err := g.Encode()
		if err != nil {
			t.Fatalf("a parsed graph does not encode: %v", err)
		}
		g2, err := vkgraph.ParseBlob(enc)
		if err != nil {
			t.Fatalf("re-encoded blob does not parse: %v", err)
		}
		enc2, err := g2.Encode()
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point (%v)", err)
		}
	})
}
