package xnnpack

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
)

// TestQuantFixturesSplit runs testdata/quant with even these small layers split across threads
// (runtime's TestQuantXnnpack runs them as a user would, where they are too small to split): the
// quantized kernels' row partitions must not change a single code.
func TestQuantFixturesSplit(t *testing.T) {
	saved := minParallelWork
	minParallelWork = 0
	defer func() { minParallelWork = saved }()
	dirs, _ := filepath.Glob(testutil.Testdata(t, "quant", "*"))
	if len(dirs) == 0 {
		t.Fatal("no quantized fixtures")
	}
	for _, threads := range []int{2, 3} {
		reg := executor.NewRegistry()
		if err := portable.Register(reg); err != nil {
			t.Fatal(err)
		}
		if err := reg.RegisterBackend(BackendID, Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			t.Run(fmt.Sprintf("%s/threads=%d", filepath.Base(dir), threads), func(t *testing.T) {
				zoorun.CheckExact(t, reg, dir, 2) // the second run reuses the plan's memory
			})
		}
	}
}

// TestQuantBoundaryOutput: a qint8 value that leaves the delegate is written as int8 codes, the
// same codes the graph's own dequantize turns into its fp32 output.
func TestQuantBoundaryOutput(t *testing.T) {
	blob, named := quantBlob(t, "conv_linear")
	g, err := xnngraph.ParseBlob(blob)
	if err != nil {
		t.Fatal(err)
	}
	// The classifier's qint8 output, read by the final Convert, also becomes an output.
	var codes *xnngraph.Value
	for _, n := range g.Nodes {
		if n.Op == schema.XNodeUnionXNNConvert && g.Values[n.Outputs[0]].IsOutput() {
			codes = &g.Values[n.Inputs[0]] // (value ids are indices in official blobs)
		}
	}
	if codes == nil || codes.DType != schema.XNNDatatypexnn_datatype_qint8 {
		t.Fatal("no qint8 value before the final dequantize")
	}
	codes.Flags, codes.ExternalID = xnngraph.FlagExternalOutput, g.NumExterns
	g.NumExterns++
	p, err := newPlan(g, named)
	if err != nil {
		t.Fatal(err)
	}
	in, err := npy.Load(testutil.Testdata(t, "quant", "conv_linear", "inputs", "input_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := npyconv.Tensor(in)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := executor.NewTensor(executor.Float32, 1, 10)
	q, _ := executor.NewTensor(executor.Int8, 1, 10)
	args := []*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: y}, {Tag: executor.TagTensor, Tensor: q}}
	if err := p.execute(args); err != nil {
		t.Fatal(err)
	}
	qi := p.quant[p.index[codes.ID]]
	for i, c := range executor.Data[int8](q) {
		if want := executor.Data[float32](y)[i]; dequantize(int32(c), qi.zp, qi.scale) != want {
			t.Fatalf("code %d = %d dequantizes to %g, the graph's output is %g", i, c, dequantize(int32(c), qi.zp, qi.scale), want)
		}
	}
	// A float tensor where the graph takes int8 codes is refused, by name.
	args[2].Tensor, _ = executor.NewTensor(executor.Float32, 1, 10)
	if err := p.execute(args); err == nil || !strings.Contains(err.Error(), "the graph takes "+executor.DTypeName(executor.Int8)) {
		t.Errorf("fp32 tensor for a qint8 output: error %v", err)
	}
}

// TestQuantMaxPoolRange: a qint8 max pooling's output range clamps its codes to the range
// quantized with the output's parameters (xnn_qs8_quantize), as XNNPACK's qs8 max pooling does.
// (Before the codes had their own storage, the fp32 kernel also clamped them to the fp32 bounds
// themselves, which only a blob with a finite range on a quantized max pooling, none the
// official partitioner writes, could tell.)
func TestQuantMaxPoolRange(t *testing.T) {
	run := func(lo, hi float32) (codes []int8, q *qinfo) {
		blob, named := quantBlob(t, "pools")
		g, err := xnngraph.ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		var pool *xnngraph.Node
		for i := range g.Nodes {
			if g.Nodes[i].Op == schema.XNodeUnionXNNMaxPooling2d {
				pool = &g.Nodes[i]
			}
		}
		if pool == nil {
			t.Fatal("no max pooling in testdata/quant/pools")
		}
		pool.OutputMin, pool.OutputMax = lo, hi
		out := &g.Values[pool.Outputs[0]] // (value ids are indices in official blobs)
		out.Flags, out.ExternalID = xnngraph.FlagExternalOutput, g.NumExterns
		g.NumExterns++
		p, err := newPlan(g, named)
		if err != nil {
			t.Fatal(err)
		}
		in, err := npy.Load(testutil.Testdata(t, "quant", "pools", "inputs", "input_0.npy"))
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(in)
		if err != nil {
			t.Fatal(err)
		}
		args := []*executor.EValue{{Tag: executor.TagTensor, Tensor: x}}
		for i := 1; i < int(g.NumExterns); i++ {
			for j := range g.Values {
				if v := &g.Values[j]; v.ExternalID == uint32(i) {
					dt := executor.Float32
					if p.quant[j] != nil {
						dt = executor.Int8
					}
					tn, _ := executor.NewTensor(dt, xnngraph.DimsOf(v.Dims)...)
					args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: tn})
				}
			}
		}
		if err := p.execute(args); err != nil {
			t.Fatal(err)
		}
		return executor.Data[int8](args[len(args)-1].Tensor), p.quant[p.index[out.ID]]
	}
	inf := float32(math.Inf(1))
	free, q := run(-inf, inf)
	lo, hi := q.scale*float32(-20-q.zp)+q.scale/4, q.scale*float32(30-q.zp)-q.scale/4
	clamped, _ := run(lo, hi)
	clo, chi := int8(quantizeBound(lo, q.scale, q.zp)), int8(quantizeBound(hi, q.scale, q.zp))
	if clo != -20 || chi != 30 {
		t.Fatalf("the range [%g, %g] quantizes to codes [%d, %d], want [-20, 30]", lo, hi, clo, chi)
	}
	changed := 0
	for i, c := range free {
		want := min(max(c, clo), chi)
		if clamped[i] != want {
			t.Fatalf("code %d: %d with the range [%g, %g], want %d (%d without it)", i, clamped[i], lo, hi, want, c)
		}
		if want != c {
			changed++
		}
	}
	if changed == 0 {
		t.Errorf("no code of %v falls outside [%d, %d]: the test does not test the range", free, clo, chi)
	}
}
