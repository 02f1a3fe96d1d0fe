package aot

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// region builds a one-node region: user inputs of the given dtypes and sizes, one call of
// target reading them, one float32 output of the first input's sizes.
func region(t *testing.T, target string, ins []ir.TensorMeta, extra ...ir.Arg) *ir.Graph {
	t.Helper()
	g := ir.NewGraph()
	n := &ir.Node{Name: "op", Target: target}
	for i := range ins {
		v := &ir.Value{Name: string(rune('a' + i)), Kind: ir.TensorValue, Meta: &ins[i]}
		if err := g.AddValue(v); err != nil {
			t.Fatal(err)
		}
		g.Inputs = append(g.Inputs, ir.InputSpec{Kind: ir.UserInput, Value: v})
		name := "self"
		if i > 0 {
			name = "other"
		}
		n.Args = append(n.Args, ir.Arg{Name: name, Kind: ir.ArgTensor, Values: []*ir.Value{v}})
	}
	n.Args = append(n.Args, extra...)
	out := &ir.Value{Name: "out", Kind: ir.TensorValue, Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: ins[0].Sizes}, Producer: n}
	if err := g.AddValue(out); err != nil {
		t.Fatal(err)
	}
	n.Outputs = []*ir.Value{out}
	g.Nodes = []*ir.Node{n}
	g.Outputs = []ir.OutputSpec{{Kind: ir.UserOutput, Value: out}}
	return g
}

func f32(sizes ...int64) ir.TensorMeta {
	m := ir.TensorMeta{DType: ir.Float32}
	for _, s := range sizes {
		m.Sizes = append(m.Sizes, ir.Dim{Size: s})
	}
	return m
}

// TestPreprocessRefusals: what etgo's preprocess does not reproduce is refused with
// ErrUnsupported, naming the node, input or option; a plain region compiles to a blob that
// verifies.
func TestPreprocessRefusals(t *testing.T) {
	dyn := f32(2, 3)
	dyn.Sizes[0] = ir.Dim{Size: 2, Symbol: "s0"}
	i32 := f32(2, 3)
	i32.DType = ir.Int32
	for _, tc := range []struct {
		name string
		g    *ir.Graph
		want string // "" compiles
	}{
		{"relu", region(t, "aten.relu.default", []ir.TensorMeta{f32(2, 3)}), ""},
		{"dynamic input", region(t, "aten.relu.default", []ir.TensorMeta{dyn}), "input a has a dynamic shape"},
		{"dtype promotion", region(t, "aten.add.Tensor", []ir.TensorMeta{f32(2, 3), i32}, ir.Arg{Name: "alpha", Kind: ir.ArgInt, Int: 1}), "node op: inputs of float32 and int32 (InsertDtypePromotionPass)"},
		{"quantized", region(t, "quantized_decomposed.quantize_per_tensor.default", []ir.TensorMeta{f32(2, 3)}), "node op: quantized_decomposed.quantize_per_tensor.default belongs to the quantized and LLM fusions"},
		{"no implementation", region(t, "aten.erf.default", []ir.TensorMeta{f32(2, 3)}), "node op: operator aten.erf.default has no Vulkan implementation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Preprocess(tc.g, PreprocessOptions{})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := vkgraph.ParseBlob(p.Blob); err != nil {
					t.Fatalf("blob does not verify: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrUnsupported naming %q", err, tc.want)
			}
		})
	}
}

// TestCompileOptions: the texture-limit options are read as parse_compile_spec reads them;
// the options that change storage, layout, dtypes or the planning are refused by name.
func TestCompileOptions(t *testing.T) {
	o, err := compileOptions([]partition.CompileSpec{{Key: "small_texture_limits", Value: []byte{1}}, {Key: "skip_bool_tensors", Value: []byte{1}}})
	if err != nil || o.TextureLimits != SmallTextureLimits {
		t.Errorf("small_texture_limits: %v %v", o, err)
	}
	o, err = compileOptions([]partition.CompileSpec{{Key: "texture_limits_y", Value: []byte{0, 1, 0, 0}}})
	if err != nil || o.TextureLimits != (Extents{16384, 256, 2048}) {
		t.Errorf("texture_limits_y: %v %v", o, err)
	}
	for _, key := range []string{"force_fp16", "storage_type_override", "memory_layout_override", "skip_memory_planning", "skip_tag_memory_metadata"} {
		_, err := compileOptions([]partition.CompileSpec{{Key: key, Value: []byte{1}}})
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: %v", key, err)
		}
	}
	if _, err := compileOptions([]partition.CompileSpec{{Key: "downcast_64_bit", Value: []byte{0}}}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("downcast_64_bit=false: %v", err)
	}
}
