package xnnpack

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
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
		reg := runtime.NewRegistry()
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
	y, _ := runtime.NewTensor(runtime.Float32, 1, 10)
	q, _ := runtime.NewTensor(runtime.Int8, 1, 10)
	args := []*runtime.EValue{{Tag: runtime.TagTensor, Tensor: x}, {Tag: runtime.TagTensor, Tensor: y}, {Tag: runtime.TagTensor, Tensor: q}}
	if err := p.execute(args); err != nil {
		t.Fatal(err)
	}
	qi := p.quant[p.index[codes.ID]]
	for i, c := range runtime.Data[int8](q) {
		if want := runtime.Data[float32](y)[i]; dequantize(int32(c), qi.zp, qi.scale) != want {
			t.Fatalf("code %d = %d dequantizes to %g, the graph's output is %g", i, c, dequantize(int32(c), qi.zp, qi.scale), want)
		}
	}
	// A float tensor where the graph takes int8 codes is refused, by name.
	args[2].Tensor, _ = runtime.NewTensor(runtime.Float32, 1, 10)
	if err := p.execute(args); err == nil || !strings.Contains(err.Error(), "the graph takes "+runtime.DTypeName(runtime.Int8)) {
		t.Errorf("fp32 tensor for a qint8 output: error %v", err)
	}
}
