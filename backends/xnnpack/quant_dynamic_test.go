package xnnpack

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/pte"
)

// runDynquant runs testdata/dynquant/<model> on inputs/<in>.npy with threads threads and returns
// etgo's output and the official runtime's expected/<out>.npy.
func runDynquant(t *testing.T, dir, in, out string, threads int) (got []float32, want []float64, dims []int) {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{Threads: threads}); err != nil {
		t.Fatal(err)
	}
	p, err := executor.Open(filepath.Join(dir, "xnnpack.pte"), executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	a, err := npy.Load(filepath.Join(dir, "inputs", in+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(a)
	if err != nil {
		t.Fatal(err)
	}
	w, err := npy.Load(filepath.Join(dir, "expected", out+".npy"))
	if err != nil {
		t.Fatal(err)
	}
	want, err = w.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 { // the second run reuses the method's memory
		outs, err := meth.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if len(outs) != 1 || outs[0].ScalarType() != executor.Float32 {
			t.Fatalf("run %d: %d outputs, want one float32 tensor", run, len(outs))
		}
		got = append([]float32(nil), executor.Data[float32](outs[0])...)
		dims = outs[0].Sizes()
	}
	if len(got) != len(want) {
		t.Fatalf("%d output values, want %d", len(got), len(want))
	}
	return got, want, dims
}

// TestDynquantFixtures runs testdata/dynquant (tools/reference/generate_dynquant_fixtures.py:
// linear layers and MLPs, dynamically quantized per token, with qcint8 or qbint4 filters) on one
// thread and split across two and three, and requires the official runtime's outputs bit for bit.
//
// The tolerance is zero because nothing in the arithmetic is left to chance: the codes, the
// per-row parameters and the int32 accumulators are exact, and the few fp32 steps after them
// follow the order of XNNPACK's x86 kernels, which made the fixtures (quant_dynamic.go; its two
// last-bit caveats do not occur here). Official outputs from another ISA's kernels (without
// FMA, or summing qb4w blocks in another order) could differ from these in the last bits of
// the fp32 steps; such fixtures would need a tolerance of a few ulps of each output's
// magnitude, never a different code.
func TestDynquantFixtures(t *testing.T) {
	dirs, _ := filepath.Glob(testutil.Testdata(t, "dynquant", "*"))
	if len(dirs) == 0 {
		t.Fatal("no dynamically quantized fixtures")
	}
	// Even these small layers split across threads (a user's run keeps them on one): the row
	// partitions must not change a bit.
	saved := minParallelWork
	minParallelWork = 0
	defer func() { minParallelWork = saved }()
	for _, dir := range dirs {
		for _, threads := range []int{1, 2, 3} {
			t.Run(filepath.Base(dir), func(t *testing.T) {
				got, want, _ := runDynquant(t, dir, "input_0", "output_0", threads)
				diffs, worst, rel := 0, 0.0, 0.0
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(float32(want[i])) {
						diffs++
						d := math.Abs(float64(got[i]) - want[i])
						worst = max(worst, d)
						rel = max(rel, d/max(math.Abs(want[i]), 1e-30))
					}
				}
				if diffs > 0 {
					t.Errorf("threads %d: %d of %d outputs differ from the official runtime's, by up to %g (relative %g)", threads, diffs, len(got), worst, rel)
				}
			})
		}
	}
}

// TestDynquantNonfinite: rows holding NaN, +Inf and -Inf come out as the official runtime's
// (a NaN element is forgotten by the row's min and max and quantizes to 127; an infinite one
// makes the row's multiplier 0 and its scale infinite, so the outputs are infinities or NaN, and
// the qc8w and qb4w kernels clamp NaN differently; quant_dynamic.go).
func TestDynquantNonfinite(t *testing.T) {
	for _, m := range []string{"linear_2d", "linear_8da4w_g32", "conv2d_batch3", "linear_qc4w"} {
		got, want, dims := runDynquant(t, testutil.Testdata(t, "dynquant", m), "nonfinite", "nonfinite", 1)
		oc := dims[len(dims)-1]
		for i := range got {
			w := float32(want[i])
			if math.Float32bits(got[i]) != math.Float32bits(w) && !(got[i] != got[i] && w != w) {
				t.Errorf("%s [%d,%d] = %g, the official runtime's is %g", m, i/oc, i%oc, got[i], w)
			}
		}
	}
}

// dynBlob parses testdata/dynquant/<model>'s blob.
func dynBlob(t *testing.T, model string) (*xnngraph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	return delegateGraph(t, testutil.Testdata(t, "dynquant", model, "xnnpack.pte"))
}

// delegateGraph parses the first delegate blob of the .pte at path.
func delegateGraph(t *testing.T, path string) (*xnngraph.Graph, func(string) ([]byte, error)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Program.ExecutionPlans[0].Delegates[0]
	b, err := f.DelegateData(&d)
	if err != nil {
		t.Fatal(err)
	}
	g, err := xnngraph.ParseBlob(b)
	if err != nil {
		t.Fatal(err)
	}
	return g, f.NamedData
}

func findDType(t *testing.T, g *xnngraph.Graph, dt schema.XNNDatatype) *xnngraph.Value {
	t.Helper()
	for i := range g.Values {
		if g.Values[i].DType == dt {
			return &g.Values[i]
		}
	}
	t.Fatalf("no %s value", dt)
	return nil
}

// TestDynquantParams: corrupt dynamic and blockwise parameters are refused by the verifier, and
// valid ones the run time does not run are refused at init, by name; none panics.
func TestDynquantParams(t *testing.T) {
	qd := func(g *xnngraph.Graph) *xnngraph.QuantParams {
		return findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8).Quant
	}
	qb := func(g *xnngraph.Graph) *xnngraph.QuantParams {
		return findDType(t, g, schema.XNNDatatypexnn_datatype_qbint4).Quant
	}
	invalid := []struct {
		name, model string
		mutate      func(g *xnngraph.Graph)
		want        string
	}{
		{"negative row dims", "linear_3d", func(g *xnngraph.Graph) { qd(g).NumNonbatchDims = -1 }, "num_nonbatch_dims -1 out of range"},
		{"too many row dims", "linear_3d", func(g *xnngraph.Graph) { qd(g).NumNonbatchDims = 4 }, "num_nonbatch_dims 4 out of range"},
		{"dynamic constant", "linear_3d", func(g *xnngraph.Graph) {
			findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8).ConstantIdx = 1
		}, "dynamically quantized (per token) but has constant data"},
		{"group size 0", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).GroupSize = 0 }, "group_size 0 does not divide"},
		{"group size not dividing", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).GroupSize = 48 }, "group_size 48 does not divide the 64"},
		{"negative group size", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).GroupSize = -32 }, "group_size -32"},
		{"scale count", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).NumScales = 47 }, "num_scales 47, but [24 64] in groups of 32 has 48"},
		{"scale buffer", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).ScaleBufferIdx = 999 }, "scale_buffer_idx 999 out of range"},
		{"inline scales", "linear_8da4w_g32", func(g *xnngraph.Graph) {
			q := qb(g)
			q.ScaleBufferIdx, q.Scales = 0, []float32{1, 2}
		}, "2 scales, but [24 64] in groups of 32 has 48"},
		{"blockwise 1-d", "linear_8da4w_g32", func(g *xnngraph.Graph) {
			findDType(t, g, schema.XNNDatatypexnn_datatype_qbint4).Dims = []uint32{1536}
		}, "it needs [out, in]"},
		{"blockwise channel dim", "linear_8da4w_g32", func(g *xnngraph.Graph) { qb(g).ChannelDim = 2 }, "channel_dim 2 out of range"},
	}
	for _, tc := range invalid {
		g, _ := dynBlob(t, tc.model)
		tc.mutate(g)
		if err := g.Validate(); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	refused := []struct {
		name, model string
		mutate      func(g *xnngraph.Graph)
		want        string
	}{
		{"qdint8 output", "linear_3d", func(g *xnngraph.Graph) {
			v := findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8)
			v.Flags, v.ExternalID = xnngraph.FlagExternalOutput, g.NumExterns
			g.NumExterns++
		}, "quantized boundary values run as qint8 only"},
		{"qcint4 filter", "linear_3d", func(g *xnngraph.Graph) {
			findDType(t, g, schema.XNNDatatypexnn_datatype_qcint8).DType = schema.XNNDatatypexnn_datatype_qcint4
		}, "value 2: constant has 480 bytes, its dims [12 40] of xnn_datatype_qcint4 are 240"},
		{"qdint8 weights", "linear_3d", func(g *xnngraph.Graph) {
			findDType(t, g, schema.XNNDatatypexnn_datatype_qcint8).DType = schema.XNNDatatypexnn_datatype_qdint8
		}, "xnn_datatype_qdint8 with PerChannelQuant parameters"},
		{"dequantize dynamic", "linear_3d", func(g *xnngraph.Graph) {
			// The Convert reads the qdint8 value and writes the fp32 output instead.
			for i := range g.Nodes {
				if n := &g.Nodes[i]; n.Op == schema.XNodeUnionXNNFullyConnected {
					n.Op, n.Inputs = schema.XNodeUnionXNNConvert, n.Inputs[:1]
				}
			}
		}, "node 1 (XNNConvert) reads a dynamically quantized (qdint8) value; only fully connected layers and convolutions run on qdint8"},
		{"transposed blockwise", "linear_8da4w_g32", func(g *xnngraph.Graph) {
			for i := range g.Nodes {
				if n := &g.Nodes[i]; n.Op == schema.XNodeUnionXNNFullyConnected {
					n.Flags |= xnngraph.FlagTransposeWeights
				}
			}
		}, "blockwise filters run as [out, in]"},
		{"blockwise scale bytes", "linear_8da4w_g32", func(g *xnngraph.Graph) {
			q := qb(g)
			q.GroupSize, q.NumScales = 64, 24 // consistent, but the buffer holds 48 scales
		}, "has 96 bytes for 24 bf16 scales"},
		{"quantized bias", "linear_8da4w_g32", func(g *xnngraph.Graph) {
			for i := range g.Values {
				if v := &g.Values[i]; v.ConstantIdx != 0 && v.DType == schema.XNNDatatypexnn_datatype_fp32 {
					v.DType, v.Quantized = schema.XNNDatatypexnn_datatype_qint32, true
					v.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerTensorQuant, Scale: 1}
				}
			}
		}, "on [xnn_datatype_qdint8 xnn_datatype_qbint4 xnn_datatype_qint32 xnn_datatype_fp32]"},
	}
	for _, tc := range refused {
		g, named := dynBlob(t, tc.model)
		tc.mutate(g)
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := newPlan(g, named); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// TestDynquantEvents: a traced call names the layers as the official runtime's ETDump does on the
// machine that made the fixtures ("Fully Connected (NC, QDU8, F32, QC8W) GEMM #1" .. #3 for the
// mlp, QB4W for mlp_8da4w_g32; the official file has no Convert events, XNNPACK folds them).
func TestDynquantEvents(t *testing.T) {
	for model, w := range map[string]string{"mlp": "QC8W", "mlp_8da4w_g32": "QB4W"} {
		g, named := dynBlob(t, model)
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatal(err)
		}
		var fc []string
		for _, s := range p.steps {
			if strings.HasPrefix(s.event, "Fully Connected") {
				fc = append(fc, s.event)
			} else if !strings.HasPrefix(s.event, "Convert (NC, F32, QDU8) #") {
				t.Errorf("%s: event %q", model, s.event)
			}
		}
		for i, e := range fc {
			if want := fmt.Sprintf("Fully Connected (NC, QDU8, F32, %s) GEMM #%d", w, i+1); e != want {
				t.Errorf("%s: event %q, the official runtime's is %q", model, e, want)
			}
		}
		if len(fc) != 3 {
			t.Errorf("%s: %d fully connected events, want 3", model, len(fc))
		}
	}
}

// TestDynquantInlineScales: a qbint4 filter whose block scales are inline fp32 (the older
// serialization) runs as with the bf16 buffer: the official runtime rounds them to bf16 by
// bf16FromF32, which keeps a value that is already bf16.
func TestDynquantInlineScales(t *testing.T) {
	g, named := dynBlob(t, "linear_8da4w_g32")
	ref, err := newPlan(g, named)
	if err != nil {
		t.Fatal(err)
	}
	w := findDType(t, g, schema.XNNDatatypexnn_datatype_qbint4)
	bs := ref.quant[ref.index[w.ID]].blockScales
	w.Quant.ScaleBufferIdx, w.Quant.Scales = 0, append([]float32(nil), bs...)
	p, err := newPlan(g, named)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range p.quant[p.index[w.ID]].blockScales {
		if s != bs[i] {
			t.Fatalf("inline scale %d: %g, from the buffer %g", i, s, bs[i])
		}
	}
	// Between two bf16 values the conversion rounds: just below the midpoint down, at and
	// above it up (the 1.00389105 factor).
	one, next := float32(1), math.Float32frombits(0x3F810000) // 1 and the next bf16
	for _, tc := range []struct {
		in   float32
		want float32
	}{{one, one}, {next, next}, {1 + 0.4*(next-1), one}, {1 + 0.6*(next-1), next}} {
		if got := math.Float32frombits(uint32(bf16FromF32(tc.in)) << 16); got != tc.want {
			t.Errorf("bf16FromF32(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

// TestDynquantConvRefusals: dynamically quantized convolutions the official runtime does not
// define are refused at init, by name: a quantized (qcint32) bias (XNNPACK takes an fp32 one
// with a qdint8 input), an int8 output, a filter quantized along another dim (whose scales then
// do not fit); and at execute, an input with fewer quantization rows than images.
func TestDynquantConvRefusals(t *testing.T) {
	conv := func(g *xnngraph.Graph) *xnngraph.Node {
		for i := range g.Nodes {
			if n := &g.Nodes[i]; n.Op == schema.XNodeUnionXNNConv2d {
				return n
			}
		}
		t.Fatal("no convolution")
		return nil
	}
	for _, tc := range []struct {
		name   string
		mutate func(g *xnngraph.Graph)
		want   string
	}{
		{"quantized bias", func(g *xnngraph.Graph) {
			v := &g.Values[conv(g).Inputs[2]]
			v.DType, v.Quantized = schema.XNNDatatypexnn_datatype_qint32, true
			v.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerTensorQuant, Scale: 1}
		}, "has a quantized (xnn_datatype_qint32) bias; dynamically quantized layers take an fp32 bias"},
		{"qint8 output", func(g *xnngraph.Graph) {
			v := &g.Values[conv(g).Outputs[0]]
			v.DType, v.Quantized = schema.XNNDatatypexnn_datatype_qint8, true
			v.Quant = &xnngraph.QuantParams{Kind: schema.XNNQuantParamsPerTensorQuant, Scale: 1}
		}, "this quantized combination is not supported"},
		{"filter channel dim", func(g *xnngraph.Graph) {
			findDType(t, g, schema.XNNDatatypexnn_datatype_qcint8).Quant.ChannelDim = 3
		}, "scale buffer 2 has 24 bytes for 4 fp32 scales (one per channel of dim 3"}, // (the filter's 6 scales)
	} {
		g, named := dynBlob(t, "conv2d_batch3")
		tc.mutate(g)
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := newPlan(g, named); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	// num_nonbatch_dims as many as the declared dims: XNNPACK's define refuses it.
	for _, mutate := range []func(v *xnngraph.Value){
		func(v *xnngraph.Value) { v.Quant.NumNonbatchDims = 4 },
		func(v *xnngraph.Value) { v.Dims = v.Dims[:3] }, // (the mutation campaign's: the official runtime refuses it at load)
	} {
		g, _ := dynBlob(t, "conv2d_batch3")
		mutate(findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8))
		if err := g.Validate(); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), "not below its") {
			t.Errorf("num_nonbatch_dims of every dim: error %v", err)
		}
	}
	// One row for three images (declared as 5-d, quantized in rows of 4 dims, run on a 4-d
	// input): XNNPACK would read past its parameters.
	g, named := dynBlob(t, "conv2d_batch3")
	v := findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8)
	v.Dims, v.Quant.NumNonbatchDims = append(v.Dims, 1), 4
	p, err := newPlan(g, named)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := executor.NewTensor(executor.Float32, 3, 4, 7, 7)
	y, _ := executor.NewTensor(executor.Float32, 3, 6, 3, 3)
	err = p.execute([]*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: y}})
	if err == nil || !strings.Contains(err.Error(), "quantized in 1 rows; XNNPACK reads one set of parameters per image (3)") {
		t.Errorf("one row for three images: error %v", err)
	}
}

// TestDynquantNonbatchDims: a qdint8 value read only by fully connected layers is quantized per
// row of its last dim whatever its num_nonbatch_dims, as XNNPACK's inlined input packing does
// (the mutation campaign's official verdict for 1 -> 0 on linear_3d and linear_8da4w_g32: the
// seed's outputs, bit for bit).
func TestDynquantNonbatchDims(t *testing.T) {
	for _, nb := range []int32{0, 2, 3} {
		g, named := dynBlob(t, "linear_3d")
		findDType(t, g, schema.XNNDatatypexnn_datatype_qdint8).Quant.NumNonbatchDims = nb
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatalf("num_nonbatch_dims %d: %v", nb, err)
		}
		a, err := npy.Load(testutil.Testdata(t, "dynquant", "linear_3d", "inputs", "input_0.npy"))
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		w, err := npy.Load(testutil.Testdata(t, "dynquant", "linear_3d", "expected", "output_0.npy"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := w.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		y, _ := executor.NewTensor(executor.Float32, 2, 3, 12)
		if err := p.execute([]*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: y}}); err != nil {
			t.Fatalf("num_nonbatch_dims %d: %v", nb, err)
		}
		for i, v := range executor.Data[float32](y) {
			if v != float32(want[i]) {
				t.Fatalf("num_nonbatch_dims %d: output %d = %g, the official runtime's is %g", nb, i, v, want[i])
			}
		}
	}
}

// TestDynquantConvEvents: dynamically quantized convolutions are named as XNNPACK's operator
// types name them (src/xnnpack/operator-type-defs.inc, with the microkernel kind as the fp32
// convolution's events carry it); a 1×1 one is XNNPACK's fully connected layer.
func TestDynquantConvEvents(t *testing.T) {
	for model, want := range map[string]string{
		"conv2d":           "Convolution (NHWC, QDU8, F32, QC8W) IGEMM #1",
		"conv2d_pointwise": "Fully Connected (NC, QDU8, F32, QC8W) GEMM #1",
		"conv_transpose":   "Deconvolution (NHWC, QDU8, F32, QC8W) #1",
	} {
		g, named := dynBlob(t, model)
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range p.steps {
			found = found || s.event == want
		}
		if !found {
			t.Errorf("%s: no event %q", model, want)
		}
	}
}

// TestDynquantRefused: what the official runtime runs on memory past its input
// (testdata/dynquant_refused: a 4-bit per-channel linear over 47 input channels, whose rows
// XNNPACK reads 48 long) is refused at load, by name.
func TestDynquantRefused(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"linear_qc4w_odd": "has 47 input channels; XNNPACK reads the activations of a 4-bit layer in rows rounded up to even",
	} {
		p, err := executor.Open(testutil.Testdata(t, "dynquant_refused", name, "xnnpack.pte"), executor.Options{Registry: reg})
		if err == nil {
			_, err = p.LoadMethod("forward")
			p.Close()
		}
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", name, err, want)
		}
	}
}

// TestDynquantPackedFiltersReleased: once every fully connected layer has packed its constant
// filter, the plan no longer holds the widened int32 codes (8 bytes a 4-bit weight beside the
// packed half byte), and the layers still run bit-identically (TestDynquantFixtures).
func TestDynquantPackedFiltersReleased(t *testing.T) {
	for _, model := range []string{"mlp", "mlp_8da4w_g32", "linear_qc4w"} {
		g, named := dynBlob(t, model)
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatal(err)
		}
		filters := 0
		for _, s := range p.steps {
			n := s.node
			if !strings.HasPrefix(s.event, "Fully Connected") || len(n.Inputs) < 2 {
				continue
			}
			filters++
			if i := p.index[n.Inputs[1]]; p.vals[i].ints != nil {
				t.Errorf("%s %s: the filter's %d widened codes are still held after packing", model, s.event, len(p.vals[i].ints))
			}
		}
		if filters == 0 {
			t.Errorf("%s: no fully connected layer", model)
		}
	}
}
