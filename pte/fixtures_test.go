package pte

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
)

// programFile is a .pte that must read, inspect and round-trip.
type programFile struct {
	name, path string
}

// wildPrograms are the program files among the wild fixtures (the rest are named by
// TestNotPrograms).
var wildPrograms = []string{
	"extension__apple__ExecuTorch____tests____resources__add.pte",
	"examples__arduino__examples__AddModel__model.pte",
	"examples__arduino__examples__KeywordSpotting__model.pte",
	"test__models__deprecated__ModuleLinear-no-constant-segment.pte",
	"examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte",
}

func programFiles(t *testing.T) []programFile {
	t.Helper()
	var out []programFile
	for _, m := range zoo.Models(t) {
		out = append(out,
			programFile{"zoo/" + m.Name + "/portable.pte", m.Portable},
			programFile{"zoo/" + m.Name + "/xnnpack.pte", m.Xnnpack})
	}
	for _, name := range []string{"external_constants.pte", "mutable_buffer.pte", "multi_method.pte"} {
		out = append(out, programFile{"pte/" + name, testutil.Testdata(t, "pte", name)})
	}
	dir := testutil.WildDir(t)
	for _, name := range wildPrograms {
		out = append(out, programFile{"wild/" + name, filepath.Join(dir, name)})
	}
	return out
}

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestZooMatchesOfficialRecord checks what the reader sees against what the official toolchain
// recorded when it wrote each zoo file: operator tables and delegate backends.
func TestZooMatchesOfficialRecord(t *testing.T) {
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		for _, v := range []zoo.Variant{zoo.Portable, zoo.Xnnpack} {
			f, err := Open(m.PTE(v))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			plan, err := f.Method("forward")
			if err != nil {
				t.Fatal(err)
			}
			var ops, backends []string
			for _, op := range plan.Operators {
				ops = append(ops, op.KernelName())
			}
			for _, d := range plan.Delegates {
				backends = append(backends, d.ID)
			}
			if got, want := strings.Join(ops, ","), strings.Join(m.Delegation.Operators[v], ","); got != want {
				t.Errorf("%s operators:\n got %s\nwant %s", v, got, want)
			}
			if got, want := strings.Join(backends, ","), strings.Join(m.Delegation.Delegates[v], ","); got != want {
				t.Errorf("%s delegates: got %s, want %s", v, got, want)
			}
			// Every tensor's data resolves, and every delegate blob is non-empty.
			for i, val := range plan.Values {
				if tt, ok := val.(*Tensor); ok {
					if _, err := f.TensorData(tt); err != nil {
						t.Errorf("%s value %d: %v", v, i, err)
					}
				}
			}
			for i := range plan.Delegates {
				blob, err := f.DelegateData(&plan.Delegates[i])
				if err != nil || len(blob) == 0 {
					t.Errorf("%s delegate %d: %d bytes, %v", v, i, len(blob), err)
				}
			}
		}
	})
}

func TestWildPrograms(t *testing.T) {
	dir := testutil.WildDir(t)
	for _, tc := range []struct {
		file      string
		methods   int
		operators []string
		delegates []string // backend of each method's delegates, in order
		header    bool
		constants int // entries of the constant segment or inline constant buffer, placeholder included
	}{
		{wildPrograms[0], 1, []string{"aten::add.out"}, nil, false, 1},
		{wildPrograms[1], 1, []string{"aten::add.out"}, nil, true, 2},
		{wildPrograms[2], 1, []string{"cortex_m::quantize_per_tensor.out", "cortex_m::quantized_depthwise_conv2d.out",
			"dim_order_ops::_clone_dim_order.out", "cortex_m::quantized_conv2d.out", "cortex_m::pad.out",
			"cortex_m::quantized_avg_pool2d.out", "cortex_m::quantized_linear.out", "cortex_m::dequantize_per_tensor.out"}, nil, true, 64},
		{wildPrograms[3], 1, []string{"aten::mul.out", "aten::add.out"}, nil, false, 3},
		{wildPrograms[4], 29, []string{}, []string{"QnnBackend"}, true, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := Parse(readFixture(t, filepath.Join(dir, tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			p := f.Program
			if len(p.ExecutionPlans) != tc.methods {
				t.Errorf("%d methods, want %d", len(p.ExecutionPlans), tc.methods)
			}
			if (f.Header != nil) != tc.header {
				t.Errorf("extended header present = %v, want %v", f.Header != nil, tc.header)
			}
			ops := []string{}
			for _, op := range p.ExecutionPlans[0].Operators {
				ops = append(ops, op.KernelName())
			}
			if strings.Join(ops, ",") != strings.Join(tc.operators, ",") {
				t.Errorf("operators %v, want %v", ops, tc.operators)
			}
			if n := max(len(p.ConstantBuffer), len(p.ConstantSegment.Offsets)); n != tc.constants {
				t.Errorf("%d constant entries, want %d", n, tc.constants)
			}
			for _, plan := range p.ExecutionPlans {
				for i, d := range plan.Delegates {
					if i >= len(tc.delegates) || d.ID != tc.delegates[i] {
						t.Errorf("method %s delegate %d is %q, want %v", plan.Name, i, d.ID, tc.delegates)
					}
				}
			}
		})
	}
}

// TestQnnMethodsShareOneBlob: the two QNN methods reference one delegate segment, which the reader
// hands out without copying.
func TestQnnMethodsShareOneBlob(t *testing.T) {
	f, err := Open(filepath.Join(testutil.WildDir(t), wildPrograms[4]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blobs [][]byte
	for _, name := range []string{"kv_forward", "prefill_forward"} {
		plan, err := f.Method(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Delegates) != 1 {
			t.Fatalf("%s has %d delegates", name, len(plan.Delegates))
		}
		b, err := f.DelegateData(&plan.Delegates[0])
		if err != nil {
			t.Fatal(err)
		}
		blobs = append(blobs, b)
	}
	if len(blobs[0]) != 1331456 || &blobs[0][0] != &blobs[1][0] {
		t.Errorf("blobs of %d and %d bytes are not one shared segment", len(blobs[0]), len(blobs[1]))
	}
	if _, err := f.Method("nope"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "kv_forward") {
		t.Errorf("unknown method: %v", err)
	}
}

// TestOldExtendedHeader reads the program a bundled program embeds (at byte 64, 1696 bytes): an
// ExecuTorch file of the pre-1.0 era with the 24-byte extended header (no segment_data_size).
func TestOldExtendedHeader(t *testing.T) {
	b := readFixture(t, filepath.Join(testutil.WildDir(t), "extension__module__test__resources__bundled_program.bpte"))
	if len(b) < 64+1696 {
		t.Fatalf("bundled program of %d bytes", len(b))
	}
	f, err := Parse(b[64 : 64+1696])
	if err != nil {
		t.Fatal(err)
	}
	if f.Header == nil || f.Header.Length != 24 || f.Header.SegmentDataSize != 0 {
		t.Fatalf("header %+v, want a 24-byte one", f.Header)
	}
	if _, err := f.Method("forward"); err != nil {
		t.Error(err)
	}
}
