package emit_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// recordingBackend stands in for XNNPACK: it keeps the blobs and named data it is given and
// the shapes of every call's arguments, and leaves the outputs as they are.
type recordingBackend struct {
	blobs [][]byte
	named map[string][]byte
	calls [][][]int // per Execute: each argument's sizes
	specs [][]executor.CompileSpec
}

func (b *recordingBackend) IsAvailable() bool { return true }

func (b *recordingBackend) Init(ctx *executor.BackendInitContext, processed []byte, specs []executor.CompileSpec) (executor.DelegateHandle, error) {
	b.blobs = append(b.blobs, slices.Clone(processed))
	b.specs = append(b.specs, specs)
	for _, k := range []string{"shared", fmt.Sprintf("own%d", len(b.blobs)-1)} {
		d, err := ctx.NamedData(k)
		if err != nil {
			return nil, err
		}
		b.named[k] = slices.Clone(d)
	}
	return len(b.blobs) - 1, nil
}

func (b *recordingBackend) Execute(_ *executor.BackendExecutionContext, _ executor.DelegateHandle, args []*executor.EValue) error {
	var call [][]int
	for _, a := range args {
		if a.Tag != executor.TagTensor {
			return fmt.Errorf("argument is %s", a.Tag)
		}
		call = append(call, slices.Clone(a.Tensor.Sizes()))
	}
	b.calls = append(b.calls, call)
	return nil
}

func (b *recordingBackend) Destroy(executor.DelegateHandle) {}

func lowerXnnpack(t *testing.T, name string) *partition.Plan {
	t.Helper()
	var m zoo.Model
	for _, x := range zoo.Models(t) {
		if x.Name == name {
			m = x
		}
	}
	prog, err := pt2.Open(m.PT2)
	if err != nil {
		t.Fatal(err)
	}
	p := &xnnaot.Partitioner{}
	ops, keep := p.OpsToNotDecompose()
	if _, err := passes.ToEdge(prog.Graph, []passes.Preserve{{Ops: ops, Keep: keep}}); err != nil {
		t.Fatal(err)
	}
	plan, err := partition.Lower(prog.Graph, []partition.Partitioner{p})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func sizesOf(v *ir.Value) []int {
	var s []int
	for _, d := range v.Meta.Sizes {
		s = append(s, int(d.Size))
	}
	return s
}

// TestEmitDelegates: split_delegation lowered with the XNNPACK partitioner (three regions
// around cumsum and erf) is emitted with a fake preprocess; the loaded program hands each blob,
// the deduplicated named data and the compile specs to the backend, and every DelegateCall
// passes the region's inputs then its outputs.
func TestEmitDelegates(t *testing.T) {
	plan := lowerXnnpack(t, "split_delegation")
	if len(plan.Delegates) != 3 {
		t.Fatalf("%d delegates, want 3", len(plan.Delegates))
	}
	for i := range plan.Delegates {
		plan.Delegates[i].Spec.CompileSpecs = []partition.CompileSpec{{Key: "k", Value: []byte{byte(i)}}}
	}
	blobOf := func(d *partition.Delegate) []byte {
		return []byte(fmt.Sprintf("blob %s: %d in, %d out", d.Call.Name, len(d.Call.Args[0].Values), len(d.Call.Outputs)))
	}
	k := 0
	opts := emit.Options{Preprocess: map[string]emit.PreprocessFunc{
		xnnpack.BackendID: func(d *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
			named := []pte.NamedBlob{
				{Key: "shared", Data: []byte("same bytes from every delegate"), Alignment: 16},
				{Key: fmt.Sprintf("own%d", k), Data: []byte(fmt.Sprintf("weights of %d", k)), Alignment: 16},
			}
			k++
			return blobOf(d), named, nil
		},
	}}
	c, file := emitWrite(t, plan, opts)
	if len(c.NamedData) != 4 {
		t.Errorf("%d named entries, want 4 (one shared key, deduplicated, and three own)", len(c.NamedData))
	}
	got := c.Program.ExecutionPlans[0]
	wantOps := []string{"aten::cumsum.out", "aten::erf.out"}
	if ops := operatorSet(got); !slices.Equal(ops, wantOps) {
		t.Errorf("operators %v, want %v", ops, wantOps)
	}

	reg := portableRegistry(t)
	be := &recordingBackend{named: map[string][]byte{}}
	if err := reg.RegisterBackend(xnnpack.BackendID, be); err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	var inputs []*executor.EValue
	for _, in := range plan.Graph.Inputs {
		if in.Kind != ir.UserInput {
			continue
		}
		x, err := executor.NewTensor(executor.ScalarType(in.Value.Meta.DType), sizesOf(in.Value)...)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	}
	if _, err := meth.Execute(context.Background(), inputs...); err != nil {
		t.Fatal(err)
	}
	if len(be.blobs) != 3 || len(be.calls) != 3 {
		t.Fatalf("backend saw %d blobs and %d calls, want 3 and 3", len(be.blobs), len(be.calls))
	}
	for i, d := range plan.Delegates {
		if string(be.blobs[i]) != string(blobOf(&d)) {
			t.Errorf("delegate %d: blob %q, want %q", i, be.blobs[i], blobOf(&d))
		}
		if len(be.specs[i]) != 1 || be.specs[i][0].Key != "k" || !slices.Equal(be.specs[i][0].Value, []byte{byte(i)}) {
			t.Errorf("delegate %d: compile specs %+v", i, be.specs[i])
		}
		var want [][]int
		for _, v := range d.Call.Args[0].Values {
			want = append(want, sizesOf(v))
		}
		for _, v := range d.Call.Outputs {
			want = append(want, sizesOf(v))
		}
		if !slices.EqualFunc(be.calls[i], want, slices.Equal[[]int]) {
			t.Errorf("delegate %d: call argument sizes %v, want inputs then outputs %v", i, be.calls[i], want)
		}
		if got := string(be.named[fmt.Sprintf("own%d", i)]); got != fmt.Sprintf("weights of %d", i) {
			t.Errorf("delegate %d: named data %q", i, got)
		}
	}
	if string(be.named["shared"]) != "same bytes from every delegate" {
		t.Errorf("shared named data %q", be.named["shared"])
	}
}

// TestEmitErrors: what the emitter refuses, and that each error names the node and the reason.
func TestEmitErrors(t *testing.T) {
	tensor := func(g *ir.Graph, name string) *ir.Value {
		v := &ir.Value{Name: name, Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 2}}}}
		if err := g.AddValue(v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	node := func(g *ir.Graph, name, target string, in *ir.Value) *ir.Node {
		n := &ir.Node{Name: name, Target: target, Args: []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{in}}}}
		out := tensor(g, name)
		out.Producer = n
		n.Outputs = []*ir.Value{out}
		g.Nodes = append(g.Nodes, n)
		return n
	}
	for _, tc := range []struct {
		name  string
		build func(g *ir.Graph)
		opts  emit.Options
		is    error
		want  string
	}{
		{"no out variant", func(g *ir.Graph) {
			x := tensor(g, "x")
			g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
			n := node(g, "lin", "aten.linear.default", x)
			g.Outputs = []ir.OutputSpec{{Value: n.Outputs[0]}}
		}, emit.Options{}, emit.ErrNoOutVariant, "node lin"},
		{"mutable buffer", func(g *ir.Graph) {
			x := tensor(g, "x")
			g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
			n := node(g, "r", "aten.relu.default", x)
			g.Outputs = []ir.OutputSpec{{Kind: ir.BufferMutation, Value: n.Outputs[0], Target: "state"}, {Value: n.Outputs[0]}}
		}, emit.Options{}, emit.ErrUnsupported, "mutable buffer state"},
		{"symbolic output", func(g *ir.Graph) {
			x := tensor(g, "x")
			s := &ir.Value{Name: "s", Kind: ir.SymIntValue}
			g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
			g.Outputs = []ir.OutputSpec{{Value: s}}
		}, emit.Options{}, emit.ErrUnsupported, "symbolic value"},
		{"unbounded dim", func(g *ir.Graph) {
			x := &ir.Value{Name: "x", Meta: &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 2, Symbol: "s0"}}}}
			g.Ranges["s0"] = ir.Range{Min: 1, Max: -1}
			g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
			g.Outputs = []ir.OutputSpec{{Value: x}}
		}, emit.Options{}, emit.ErrUnsupported, "no upper bound"},
		{"missing argument", func(g *ir.Graph) {
			x := tensor(g, "x")
			g.Inputs = []ir.InputSpec{{Kind: ir.UserInput, Value: x}}
			n := node(g, "c", "aten.cat.default", x)
			n.Args = nil
			g.Outputs = []ir.OutputSpec{{Value: n.Outputs[0]}}
		}, emit.Options{}, nil, "node c (aten.cat.default): required argument tensors"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := ir.NewGraph()
			tc.build(g)
			_, err := emit.Program(&partition.Plan{Graph: g}, tc.opts)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one wrapping %v and saying %q", err, tc.is, tc.want)
			}
		})
	}

	t.Run("no preprocess", func(t *testing.T) {
		_, err := emit.Program(lowerXnnpack(t, "add"), emit.Options{})
		if err == nil || !strings.Contains(err.Error(), "no preprocess for backend XnnpackBackend") {
			t.Fatalf("error %v", err)
		}
	})
}

// TestCheckKernels: a program whose operators a registry lacks is refused, naming each.
func TestCheckKernels(t *testing.T) {
	var plan *partition.Plan
	zoo.Each(t, func(t *testing.T, m zoo.Model) {
		if m.Name == "int_bool" {
			plan = lowerPortable(t, m)
		}
	})
	c, err := emit.Program(plan, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := emit.CheckKernels(c.Program, portableRegistry(t).HasKernel); err != nil {
		t.Fatalf("portable kernels: %v", err)
	}
	reg := executor.NewRegistry()
	full := portableRegistry(t)
	for _, k := range full.Kernels() {
		if k.Name != "aten::argmax.out" && k.Name != "aten::where.self_out" {
			if err := reg.RegisterKernels(k); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = emit.CheckKernels(c.Program, reg.HasKernel)
	if !errors.Is(err, emit.ErrKernelMissing) {
		t.Fatalf("error %v, want ErrKernelMissing", err)
	}
	for _, want := range []string{"2 operator(s)", "aten::argmax.out (method \"forward\", instructions 0)", "aten::where.self_out"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestEmitOutputsAliasingInputs: a graph output that is a user input or a parameter is the
// input's or the constant's value itself, as ExecuTorch's emitter writes it, and runs.
func TestEmitOutputsAliasingInputs(t *testing.T) {
	g := ir.NewGraph()
	meta := func() *ir.TensorMeta { return &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.Dim{{Size: 2}}} }
	x := &ir.Value{Name: "x", Meta: meta()}
	w := &ir.Value{Name: "w", Meta: meta()}
	r := &ir.Node{Name: "r", Target: "aten.relu.default", Args: []ir.Arg{{Name: "self", Kind: ir.ArgTensor, Values: []*ir.Value{x}}}}
	rv := &ir.Value{Name: "r", Meta: meta(), Producer: r}
	r.Outputs = []*ir.Value{rv}
	for _, v := range []*ir.Value{x, w, rv} {
		if err := g.AddValue(v); err != nil {
			t.Fatal(err)
		}
	}
	g.Nodes = []*ir.Node{r}
	g.Constants["w"] = &ir.Constant{Meta: *meta(), Data: []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}} // 1, 2
	g.Inputs = []ir.InputSpec{{Kind: ir.Parameter, Value: w, Target: "w"}, {Kind: ir.UserInput, Value: x}}
	g.Outputs = []ir.OutputSpec{{Value: rv}, {Value: x}, {Value: w}}
	c, file := emitWrite(t, &partition.Plan{Graph: g}, emit.Options{})
	p := c.Program.ExecutionPlans[0]
	if p.Outputs[1] != p.Inputs[0] || p.Outputs[2] != 0 {
		t.Fatalf("outputs %v, inputs %v: want the input's value and the parameter's (0)", p.Outputs, p.Inputs)
	}
	f, err := pte.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := executor.NewProgram(f, executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := prog.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	in, err := executor.FromSlice([]float32{-3, 4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := m.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]float32{{0, 4}, {-3, 4}, {1, 2}} {
		got, err := executor.Values[float32](outs[i])
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("output %d: %v (%v), want %v", i, got, err, want)
		}
	}
}
