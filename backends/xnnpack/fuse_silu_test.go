package xnnpack

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
)

// graphBuilder makes small multi-node fp32 graphs: every input (filters too) is an external
// input, numbered in order, then the outputs.
type graphBuilder struct {
	g      xnngraph.Graph
	inputs [][]int
	outs   [][]int
}

func (b *graphBuilder) value(dims []int, flags uint32) uint32 {
	id := uint32(len(b.g.Values))
	b.g.Values = append(b.g.Values, xnngraph.Value{ID: id, DType: schema.XNNDatatypexnn_datatype_fp32, Dims: u32s(dims), Flags: flags})
	return id
}

func (b *graphBuilder) input(dims ...int) uint32 {
	b.inputs = append(b.inputs, dims)
	return b.value(dims, xnngraph.FlagExternalInput)
}

// output marks value id an external output.
func (b *graphBuilder) output(id uint32) {
	v := &b.g.Values[id]
	v.Flags |= xnngraph.FlagExternalOutput
	b.outs = append(b.outs, xnngraph.DimsOf(v.Dims))
}

func (b *graphBuilder) node(op schema.XNodeUnion, out []int, in ...uint32) (*xnngraph.Node, uint32) {
	y := b.value(out, 0)
	b.g.Nodes = append(b.g.Nodes, xnngraph.Node{Op: op, Inputs: in, Outputs: []uint32{y},
		OutputMin: float32(math.Inf(-1)), OutputMax: float32(math.Inf(1))})
	return &b.g.Nodes[len(b.g.Nodes)-1], y
}

// finish numbers the external values (inputs first) and checks the graph.
func (b *graphBuilder) finish(t testing.TB) *xnngraph.Graph {
	t.Helper()
	ext := uint32(0)
	for i := range b.g.Values {
		b.g.Values[i].ExternalID = xnngraph.InvalidID
	}
	for _, input := range []bool{true, false} {
		for i := range b.g.Values {
			if v := &b.g.Values[i]; v.Flags != 0 && v.IsInput() == input {
				v.ExternalID = ext
				ext++
			}
		}
	}
	b.g.NumExterns, b.g.HasHeader = ext, true
	if err := b.g.Validate(); err != nil {
		t.Fatal(err)
	}
	return &b.g
}

func u32s(d []int) []uint32 {
	out := make([]uint32, len(d))
	for i, x := range d {
		out[i] = uint32(x)
	}
	return out
}

// silu adds sigmoid(x) and its product with x (sigmoid first with sigFirst), returning the
// two nodes and the product.
func (b *graphBuilder) silu(x uint32, sigFirst bool) (sig, mul *xnngraph.Node, z uint32) {
	dims := xnngraph.DimsOf(b.g.Values[x].Dims)
	_, s := b.node(schema.XNodeUnionXNNSigmoid, dims, x)
	in := []uint32{x, s}
	if sigFirst {
		in = []uint32{s, x}
	}
	_, z = b.node(schema.XNodeUnionXNNMultiply, dims, in...)
	n := len(b.g.Nodes)
	return &b.g.Nodes[n-2], &b.g.Nodes[n-1], z
}

func conv(b *graphBuilder, x uint32, n, h, w, c, oc, k int) uint32 {
	f, bias := b.input(oc, k, k, c), b.input(oc)
	nd, y := b.node(schema.XNodeUnionXNNConv2d, []int{n, h, w, oc}, x, f, bias)
	p := uint32(k / 2)
	nd.Conv = &xnngraph.ConvParams{PadTop: p, PadRight: p, PadBottom: p, PadLeft: p, KernelH: uint32(k), KernelW: uint32(k),
		StrideH: 1, StrideW: 1, DilationH: 1, DilationW: 1, Groups: 1, GroupInputChannels: uint32(c), GroupOutputChannels: uint32(oc)}
	return y
}

// TestSiLUFusion runs graphs holding x·sigmoid(x) with the pair fused (into a convolution,
// depthwise convolution or fully connected producer, or in the sigmoid's step) and as the two
// nodes, at 1 and 2 threads, on inputs with NaN, ±Inf and large values: the outputs must be
// the same bits (both NaN where a scalar product of NaNs leaves Go's compiler the choice), and
// the plan must have fused what it should and nothing else.
func TestSiLUFusion(t *testing.T) {
	inf := float32(math.Inf(1))
	cases := []struct {
		name  string
		build func(b *graphBuilder)
		// fused: "producer" (the product is its producer's output), "step" (the sigmoid's step
		// computes it) or "" (the graph runs as written).
		fused string
	}{
		{"conv 3x3 oc 8", func(b *graphBuilder) {
			_, _, z := b.silu(conv(b, b.input(1, 7, 9, 3), 1, 7, 9, 3, 8, 3), false)
			b.output(z)
		}, "producer"},
		{"conv 1x1 oc 10 sigmoid first", func(b *graphBuilder) {
			_, _, z := b.silu(conv(b, b.input(2, 5, 7, 6), 2, 5, 7, 6, 10, 1), true)
			b.output(z)
		}, "producer"},
		{"conv large, 2 splits", func(b *graphBuilder) {
			_, _, z := b.silu(conv(b, b.input(1, 40, 40, 4), 1, 40, 40, 4, 13, 3), false)
			b.output(z)
		}, "producer"},
		{"conv with range, multiply with range", func(b *graphBuilder) {
			y := conv(b, b.input(1, 6, 6, 5), 1, 6, 6, 5, 11, 3)
			b.g.Nodes[len(b.g.Nodes)-1].OutputMin, b.g.Nodes[len(b.g.Nodes)-1].OutputMax = -2, 3
			_, m, z := b.silu(y, false)
			m.OutputMin, m.OutputMax = -0.1, 1.5
			b.output(z)
		}, "producer"},
		{"depthwise", func(b *graphBuilder) {
			x, f, bias := b.input(1, 9, 8, 12), b.input(1, 3, 3, 12), b.input(12)
			nd, y := b.node(schema.XNodeUnionXNNDepthwiseConv2d, []int{1, 9, 8, 12}, x, f, bias)
			nd.Conv = &xnngraph.ConvParams{PadTop: 1, PadRight: 1, PadBottom: 1, PadLeft: 1, KernelH: 3, KernelW: 3,
				StrideH: 1, StrideW: 1, DilationH: 1, DilationW: 1, Groups: 12, GroupInputChannels: 1, GroupOutputChannels: 1}
			_, _, z := b.silu(y, false)
			b.output(z)
		}, "producer"},
		{"fully connected", func(b *graphBuilder) {
			x, w, bias := b.input(5, 12), b.input(13, 12), b.input(13)
			_, y := b.node(schema.XNodeUnionXNNFullyConnected, []int{5, 13}, x, w, bias)
			_, _, z := b.silu(y, true)
			b.output(z)
		}, "producer"},
		{"fully connected one row", func(b *graphBuilder) { // (two threads split its columns)
			x, w, bias := b.input(1, 40), b.input(70, 40), b.input(70)
			_, y := b.node(schema.XNodeUnionXNNFullyConnected, []int{1, 70}, x, w, bias)
			_, _, z := b.silu(y, false)
			b.output(z)
		}, "producer"},
		{"graph input", func(b *graphBuilder) {
			_, _, z := b.silu(b.input(3, 1003), false)
			b.output(z)
		}, "step"},
		{"graph input, multiply with range", func(b *graphBuilder) {
			_, m, z := b.silu(b.input(70, 70, 5), true)
			m.OutputMin, m.OutputMax = -inf, 2
			b.output(z)
		}, "step"},
		{"conv output read again", func(b *graphBuilder) {
			y := conv(b, b.input(1, 5, 5, 3), 1, 5, 5, 3, 9, 3)
			_, _, z := b.silu(y, false)
			_, r := b.node(schema.XNodeUnionXNNAdd, []int{1, 5, 5, 9}, z, y)
			b.output(r)
		}, "step"},
		{"conv output a graph output", func(b *graphBuilder) {
			y := conv(b, b.input(1, 5, 5, 3), 1, 5, 5, 3, 9, 3)
			_, _, z := b.silu(y, false)
			b.output(y)
			b.output(z)
		}, "step"},
		{"sigmoid output a graph output", func(b *graphBuilder) {
			y := conv(b, b.input(1, 5, 5, 3), 1, 5, 5, 3, 9, 3)
			s, _, z := b.silu(y, false)
			b.output(s.Outputs[0])
			b.output(z)
		}, ""},
		{"sigmoid with range", func(b *graphBuilder) {
			s, _, z := b.silu(b.input(4, 33), false)
			s.OutputMin = 0.25
			b.output(z)
		}, ""},
		{"sigmoid read twice", func(b *graphBuilder) {
			x := b.input(4, 33)
			s, _, z := b.silu(x, false)
			_, r := b.node(schema.XNodeUnionXNNAdd, []int{4, 33}, z, s.Outputs[0])
			b.output(r)
		}, ""},
		{"square of the sigmoid", func(b *graphBuilder) {
			x := b.input(4, 33)
			_, s := b.node(schema.XNodeUnionXNNSigmoid, []int{4, 33}, x)
			_, z := b.node(schema.XNodeUnionXNNMultiply, []int{4, 33}, s, s)
			b.output(z)
		}, ""},
		{"sigmoid times another value", func(b *graphBuilder) {
			x, w := b.input(4, 33), b.input(4, 33)
			_, s := b.node(schema.XNodeUnionXNNSigmoid, []int{4, 33}, x)
			_, z := b.node(schema.XNodeUnionXNNMultiply, []int{4, 33}, w, s)
			b.output(z)
		}, ""},
	}
	special := []float32{float32(math.NaN()), inf, -inf, 0, 90, -90, 1e30, -1e30, 1e-40}
	for ci, c := range cases {
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(t *testing.T) {
				if threads > 1 {
					saved := minParallelWork
					minParallelWork = 0
					defer func() { minParallelWork = saved }()
				}
				r := rand.New(rand.NewPCG(uint64(ci), 7))
				var probe graphBuilder
				c.build(&probe)
				var inputs [][]float32
				for k, dims := range probe.inputs {
					v := make([]float32, xnngraph.Numel(dims))
					for i := range v {
						v[i] = float32(r.NormFloat64() * 3)
						if k == 0 && r.IntN(40) == 0 { // specials in the data, not the filters
							v[i] = special[r.IntN(len(special))]
						}
					}
					inputs = append(inputs, v)
				}
				run := func(fuse bool) ([][]float32, *plan) {
					saved := fuseSiLUs
					fuseSiLUs = fuse
					defer func() { fuseSiLUs = saved }()
					var b graphBuilder
					c.build(&b)
					p, err := newPlan(b.finish(t), nil)
					if err != nil {
						t.Fatal(err)
					}
					p.threads = threads
					var args []*executor.EValue
					for k, dims := range b.inputs {
						x, err := executor.FromSlice(inputs[k], dims...)
						if err != nil {
							t.Fatal(err)
						}
						args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
					}
					var outs []*executor.Tensor
					for _, dims := range b.outs {
						o, err := executor.NewTensor(executor.Float32, dims...)
						if err != nil {
							t.Fatal(err)
						}
						outs = append(outs, o)
						args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: o})
					}
					for call := 0; call < 2; call++ { // a second call reuses the plan's buffers
						if err := p.execute(args); err != nil {
							t.Fatal(err)
						}
					}
					var got [][]float32
					for _, o := range outs {
						got = append(got, executor.Data[float32](o))
					}
					return got, p
				}
				want, _ := run(false)
				got, p := run(true)
				producer, step := len(p.fusedAct) > 0, false
				for _, s := range p.steps {
					if s.node.Op == schema.XNodeUnionXNNMultiply && s.node.Outputs == nil && !producer {
						step = true
					}
				}
				if fused := map[bool]string{true: "producer"}[producer] + map[bool]string{true: "step"}[step]; fused != c.fused {
					t.Fatalf("fused %q, want %q", fused, c.fused)
				}
				for o := range want {
					for i, w := range want[o] {
						g := got[o][i]
						if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
							t.Fatalf("output %d [%d] = %v (%#x), the two nodes give %v (%#x)", o, i, g, math.Float32bits(g), w, math.Float32bits(w))
						}
					}
				}
			})
		}
	}
}

// BenchmarkSiLU times a 1×1 convolution followed by x·sigmoid(x) (EfficientNet's expansion
// layer at 28×28) with the pair fused into the convolution and as the two nodes, and a
// broadcast gate [1,C,1,1] times [1,C,H,W] (the squeeze-and-excitation scale in NCHW).
func BenchmarkSiLU(b *testing.B) {
	build := func(gb *graphBuilder) {
		_, _, z := gb.silu(conv(gb, gb.input(1, 28, 28, 40), 1, 28, 28, 40, 240, 1), false)
		gb.output(z)
	}
	for _, fuse := range []bool{true, false} {
		b.Run(fmt.Sprintf("conv1x1+silu/fused=%v", fuse), func(b *testing.B) {
			saved := fuseSiLUs
			fuseSiLUs = fuse
			defer func() { fuseSiLUs = saved }()
			var gb graphBuilder
			build(&gb)
			p, err := newPlan(gb.finish(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			loopCPU(b, p, benchArgs(b, gb.inputs, gb.outs))
		})
	}
	b.Run("gate [1,240,1,1] x [1,240,28,28]", func(b *testing.B) {
		var gb graphBuilder
		x, g := gb.input(1, 240, 28, 28), gb.input(1, 240, 1, 1)
		_, z := gb.node(schema.XNodeUnionXNNMultiply, []int{1, 240, 28, 28}, x, g)
		gb.output(z)
		p, err := newPlan(gb.finish(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		loopCPU(b, p, benchArgs(b, gb.inputs, gb.outs))
	})
}

// loopCPU runs p for the benchmark on a locked OS thread and reports its CPU time per run too
// ("cpu-ns/op": the machine's other load does not count).
func loopCPU(b *testing.B, p *plan, args []*executor.EValue) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, n := threadClock(), 0
	for b.Loop() {
		if err := p.execute(args); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(threadClock()-t0)/float64(max(n, 1)), "cpu-ns/op")
}

func benchArgs(b *testing.B, inputs, outs [][]int) []*executor.EValue {
	r := rand.New(rand.NewPCG(1, 2))
	var args []*executor.EValue
	for _, dims := range append(inputs, outs...) {
		v := make([]float32, xnngraph.Numel(dims))
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		x, err := executor.FromSlice(v, dims...)
		if err != nil {
			b.Fatal(err)
		}
		args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	}
	return args
}

// BenchmarkSiLUModels runs the full-size SiLU networks of tools/reference/bench_suite.py
// (testdata/bench-full, generated on demand, never committed) that are present at one thread,
// with the pairs fused and as two nodes, alternating run by run so the machine's load hits both
// alike, and reports each one's thread CPU time per run and their ratio.
func BenchmarkSiLUModels(b *testing.B) {
	for _, m := range []string{"efficientnet_b0", "regnet_y_400mf", "mobilenet_v3_large"} {
		dir := testutil.Testdata(b, "bench-full", m)
		if _, err := os.Stat(filepath.Join(dir, "xnnpack.pte")); err != nil {
			continue
		}
		b.Run(m, func(b *testing.B) {
			a, err := npy.Load(filepath.Join(dir, "inputs", "input_0.npy"))
			if err != nil {
				b.Fatal(err)
			}
			x, err := npyconv.Tensor(a)
			if err != nil {
				b.Fatal(err)
			}
			var meths [2]*executor.Method
			for i, fuse := range []bool{true, false} {
				meths[i] = loadWith(b, filepath.Join(dir, "xnnpack.pte"), fuse)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu [2]time.Duration
			n := 0
			for b.Loop() {
				for i, meth := range meths {
					t0 := threadClock()
					if _, err := meth.Run(context.Background(), x); err != nil {
						b.Fatal(err)
					}
					cpu[i] += threadClock() - t0
				}
				n++
			}
			b.ReportMetric(float64(cpu[0])/float64(max(n, 1)), "fused-cpu-ns/op")
			b.ReportMetric(float64(cpu[1])/float64(max(n, 1)), "unfused-cpu-ns/op")
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "fused/unfused")
		})
	}
}

// loadWith loads a program's forward method on the XNNPACK backend (one thread), its plans built
// with SiLU fusion on or off.
func loadWith(b *testing.B, path string, fuse bool) *executor.Method {
	saved := fuseSiLUs
	fuseSiLUs = fuse
	defer func() { fuseSiLUs = saved }()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		b.Fatal(err)
	}
	if err := reg.RegisterBackend(BackendID, Backend{Threads: 1}); err != nil {
		b.Fatal(err)
	}
	prog, err := executor.Open(path, executor.Options{Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { prog.Close() })
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { meth.Close() })
	return meth
}
