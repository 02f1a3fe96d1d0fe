package emit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/etgo/etgo/internal/opschema"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/pte/schema"
)

// ErrUnsupported is wrapped when the graph holds something the emitter does not handle
// (mutable buffers, control flow, a symbolic value as a graph output, ...).
var ErrUnsupported = errors.New("emit: unsupported")

// PreprocessFunc compiles one delegated region into the blob its backend loads, plus the named
// data (weights by key) the blob refers to. The blob's external ids follow the call's inputs in
// order, then its outputs (the DelegateCall's argument order).
type PreprocessFunc func(d *partition.Delegate) (blob []byte, named []pte.NamedBlob, err error)

// Options configure Program.
type Options struct {
	// Method names the one method emitted (default "forward").
	Method string
	// Preprocess maps a backend id ("XnnpackBackend") to its preprocess; every delegate in the
	// plan needs one.
	Preprocess map[string]PreprocessFunc
	// ContainerMetadata overrides the pytree strings derived from the graph signature (a tuple
	// of the positional user inputs plus an empty kwargs dict; one output as a leaf, several as a
	// tuple). Pass the .pt2's in_spec/out_spec when the model takes kwargs or returns a nested or
	// one-element container.
	ContainerMetadata *pte.ContainerMetadata
}

// Program emits a partitioned Edge graph as a program with one method, as ExecuTorch's
// to_executorch does: each remaining operator becomes a KernelCall of its out variant with
// every schema argument (defaults included), each executorch_call_delegate a DelegateCall with
// the blob its backend's preprocess returns, parameters and constants go to the constant
// segment, and every other tensor (user inputs and outputs included) is memory planned into
// one arena, memory_id 1.
func Program(plan *partition.Plan, opts Options) (*pte.Contents, error) {
	if plan == nil || plan.Graph == nil {
		return nil, fmt.Errorf("emit: no plan")
	}
	if opts.Method == "" {
		opts.Method = "forward"
	}
	e := newEmitter(plan, opts)
	if err := e.run(); err != nil {
		return nil, err
	}
	return e.contents(), nil
}

// storage says where a tensor value's bytes live.
type storage struct {
	buf      *buffer // planned; nil for constants
	constIdx uint32  // DataBufferIdx of a constant
}

type emitter struct {
	plan *partition.Plan
	g    *ir.Graph
	opts Options

	values      []pte.EValue
	ids         map[*ir.Value]int32    // value → its EValue index
	store       map[*ir.Value]*storage // tensor value → its bytes (views share their root's)
	dimOrder    map[*ir.Value][]uint8  // non-contiguous tensors only
	bufs        []*buffer
	planned     map[*buffer][]int32 // EValue indices placed in each buffer
	pos         int                 // current instruction position (for lifetimes)
	operators   []pte.Operator
	opIndex     map[string]int32
	instrs      []pte.Instruction
	delegates   []pte.BackendDelegate
	blobs       [][]byte
	named       []pte.NamedBlob
	namedIdx    map[string]int
	constants   [][]byte
	constIdx    map[string]uint32
	inputs      []int32
	outputs     []int32
	users       map[*ir.Value][]*ir.Node
	plannedSize int64
}

func newEmitter(plan *partition.Plan, opts Options) *emitter {
	return &emitter{
		plan: plan, g: plan.Graph, opts: opts,
		ids: map[*ir.Value]int32{}, store: map[*ir.Value]*storage{}, dimOrder: map[*ir.Value][]uint8{},
		planned: map[*buffer][]int32{}, opIndex: map[string]int32{}, namedIdx: map[string]int{},
		constants: [][]byte{{}}, constIdx: map[string]uint32{},
	}
}

func nodeErr(n *ir.Node, format string, args ...any) error {
	return fmt.Errorf("emit: node %s (%s): "+format, append([]any{n.Name, n.Target}, args...)...)
}

func (e *emitter) add(v pte.EValue) int32 {
	e.values = append(e.values, v)
	return int32(len(e.values) - 1)
}

func (e *emitter) run() error {
	g := e.g
	for _, o := range g.Outputs {
		switch o.Kind {
		case ir.BufferMutation:
			return fmt.Errorf("%w: mutable buffer %s (the graph writes it back)", ErrUnsupported, o.Target)
		case ir.UserInputMutation:
			return fmt.Errorf("%w: the graph mutates user input %s", ErrUnsupported, o.Target)
		}
		if o.Value != nil && o.Value.Kind != ir.TensorValue {
			return fmt.Errorf("%w: graph output %s is a symbolic value, not a tensor", ErrUnsupported, o.Value.Name)
		}
	}
	e.users = g.Users()
	if err := e.emitInputs(); err != nil {
		return err
	}
	for i, n := range g.Nodes {
		e.pos = i + 1
		var err error
		switch {
		case n.Target == partition.CallDelegate:
			err = e.emitDelegate(n)
		case n.Target == "aten.view_copy.default" && !e.isOutput(n):
			err = e.emitView(n)
		case n.Target == "aten.sym_size.int":
			err = e.emitSymSize(n)
		case passes.PrimOps[n.Target] != "":
			err = e.emitPrimOp(n, passes.PrimOps[n.Target])
		default:
			err = e.emitKernel(n)
		}
		if err != nil {
			return err
		}
	}
	// Graph outputs are alive until the method returns.
	end := len(g.Nodes) + 1
	e.pos = end
	for _, o := range g.Outputs {
		if o.Value == nil {
			// A None (or literal) output: ExecuTorch emits the constant; the IR keeps only None.
			e.outputs = append(e.outputs, e.add(pte.Null{}))
			continue
		}
		id, ok := e.ids[o.Value]
		if !ok {
			return fmt.Errorf("emit: graph output %s is never produced", o.Value.Name)
		}
		e.use(o.Value)
		e.outputs = append(e.outputs, id)
	}
	size := planMemory(e.bufs)
	for _, b := range e.bufs {
		for _, id := range e.planned[b] {
			t := e.values[id].(*pte.Tensor)
			t.AllocationInfo = &pte.AllocationDetails{MemoryID: 1, MemoryOffsetLow: uint32(b.offset), MemoryOffsetHigh: uint32(uint64(b.offset) >> 32)}
		}
	}
	e.plannedSize = size
	return nil
}

func (e *emitter) isOutput(n *ir.Node) bool {
	for _, v := range n.Outputs {
		if v != nil && e.g.IsGraphOutput(v) {
			return true
		}
	}
	return false
}

// use extends the lifetime of v's storage to the current position.
func (e *emitter) use(v *ir.Value) {
	if s := e.store[v]; s != nil && s.buf != nil {
		s.buf.end = max(s.buf.end, e.pos)
	}
}

// emitInputs emits the graph's inputs in signature order: parameters, buffers and constants as
// constant tensors (content-deduplicated, as ExecuTorch does), user inputs as planned tensors.
func (e *emitter) emitInputs() error {
	for _, in := range e.g.Inputs {
		v := in.Value
		if v == nil {
			return fmt.Errorf("emit: graph input %s has no value", in.Target)
		}
		switch in.Kind {
		case ir.UserInput:
			if v.Kind != ir.TensorValue {
				return fmt.Errorf("%w: user input %s is a symbolic value; only tensor inputs are supported", ErrUnsupported, v.Name)
			}
			id, err := e.newPlanned(v, nil)
			if err != nil {
				return fmt.Errorf("emit: input %s: %w", v.Name, err)
			}
			e.inputs = append(e.inputs, id)
		case ir.Parameter, ir.Buffer, ir.TensorConstant:
			c := e.g.Constants[in.Target]
			if c == nil {
				return fmt.Errorf("emit: %s %s has no data in the graph's constants", kindName(in.Kind), in.Target)
			}
			if v.Meta == nil {
				return fmt.Errorf("emit: constant %s has no tensor metadata", in.Target)
			}
			if !v.Meta.IsStatic() {
				return fmt.Errorf("%w: constant %s has symbolic sizes %s", ErrUnsupported, in.Target, v.Meta)
			}
			want := numel(v.Meta) * int64(v.Meta.DType.Size())
			if int64(len(c.Data)) != want {
				return fmt.Errorf("emit: constant %s holds %d bytes, its metadata %s needs %d", in.Target, len(c.Data), v.Meta, want)
			}
			idx := e.constant(c.Data)
			t, err := e.tensorOf(v)
			if err != nil {
				return fmt.Errorf("emit: constant %s: %w", in.Target, err)
			}
			t.DataBufferIdx = idx
			e.store[v] = &storage{constIdx: idx}
			e.ids[v] = e.add(t)
		default:
			return fmt.Errorf("%w: graph input %s of kind %s", ErrUnsupported, v.Name, kindName(in.Kind))
		}
	}
	return nil
}

func kindName(k ir.InputKind) string {
	switch k {
	case ir.UserInput:
		return "user input"
	case ir.Parameter:
		return "parameter"
	case ir.Buffer:
		return "buffer"
	case ir.TensorConstant:
		return "tensor constant"
	case ir.ConstantInput:
		return "non-tensor constant input"
	}
	return fmt.Sprintf("input kind %d", k)
}

// newPlanned emits a tensor with its own planned buffer, alive from the current position.
func (e *emitter) newPlanned(v *ir.Value, meta *ir.TensorMeta) (int32, error) {
	if meta == nil {
		meta = v.Meta
	}
	t, err := e.tensorMeta(meta, e.dimOrder[v])
	if err != nil {
		return 0, err
	}
	var nbytes int64 = int64(meta.DType.Size())
	for _, s := range t.Sizes {
		nbytes *= int64(s)
	}
	b := &buffer{size: alignUp(nbytes, Alignment), start: e.pos, end: e.pos}
	e.bufs = append(e.bufs, b)
	id := e.add(t)
	e.planned[b] = append(e.planned[b], id)
	if v != nil {
		e.store[v] = &storage{buf: b}
		e.ids[v] = id
	}
	return id, nil
}

func (e *emitter) tensorOf(v *ir.Value) (*pte.Tensor, error) {
	if v.Kind != ir.TensorValue || v.Meta == nil {
		return nil, fmt.Errorf("%s is not a tensor", v.Name)
	}
	return e.tensorMeta(v.Meta, e.dimOrder[v])
}

// tensorMeta builds a tensor EValue: a symbolic dim becomes its upper bound from Graph.Ranges
// and makes the tensor DYNAMIC_BOUND, as ExecuTorch's emitter writes it.
func (e *emitter) tensorMeta(m *ir.TensorMeta, order []uint8) (*pte.Tensor, error) {
	if m.DType.Size() == 0 {
		return nil, fmt.Errorf("%w: dtype %s", ErrUnsupported, m.DType)
	}
	if len(m.Sizes) > 16 {
		return nil, fmt.Errorf("%w: %d dims (ExecuTorch allows 16)", ErrUnsupported, len(m.Sizes))
	}
	t := &pte.Tensor{ScalarType: schema.ScalarType(m.DType), Sizes: make([]int32, len(m.Sizes)), DimOrder: make([]uint8, len(m.Sizes))}
	for i, d := range m.Sizes {
		size := d.Size
		if !d.IsStatic() {
			ub, err := boundOf(d.Symbol, e.g.Ranges)
			if err != nil {
				return nil, err
			}
			size = ub
			t.ShapeDynamism = schema.TensorShapeDynamismDYNAMIC_BOUND
		}
		if size < 0 || size > 1<<31-1 {
			return nil, fmt.Errorf("%w: dim %d of size %d", ErrUnsupported, i, size)
		}
		t.Sizes[i] = int32(size)
		t.DimOrder[i] = uint8(i)
	}
	if order != nil {
		copy(t.DimOrder, order)
	}
	return t, nil
}

func numel(m *ir.TensorMeta) int64 {
	n := int64(1)
	for _, d := range m.Sizes {
		n *= d.Size
	}
	return n
}

// root follows view_copy producers to the first tensor that owns its storage, as
// NormalizeViewCopyBasePass does before views are elided.
func root(v *ir.Value) *ir.Value {
	for v.Producer != nil && v.Producer.Target == "aten.view_copy.default" {
		base := v.Producer.TensorArg("self")
		if base == nil {
			break
		}
		v = base
	}
	return v
}

// emitView handles a view_copy that is not a graph output: like ExecuTorch's
// ReplaceViewCopyWithViewPass, a static view becomes a tensor sharing its base's storage and
// runs no kernel; a dynamic one runs executorch_prim::et_view, which re-points it at run time.
func (e *emitter) emitView(n *ir.Node) error {
	if len(n.Outputs) != 1 || n.Outputs[0] == nil {
		return nodeErr(n, "a view has one output")
	}
	out := n.Outputs[0]
	self := n.TensorArg("self")
	if self == nil {
		return nodeErr(n, "no tensor argument self")
	}
	base := root(self)
	bs := e.store[base]
	if bs == nil {
		return nodeErr(n, "base %s has no storage", base.Name)
	}
	if _, ok := e.dimOrder[base]; ok {
		return nodeErr(n, "%w: a view of a non-contiguous tensor", ErrUnsupported)
	}
	t, err := e.tensorOf(out)
	if err != nil {
		return nodeErr(n, "%v", err)
	}
	e.use(self)
	if t.ShapeDynamism == schema.TensorShapeDynamismSTATIC {
		e.store[out] = bs
		if bs.buf == nil {
			t.DataBufferIdx = bs.constIdx
		}
		id := e.add(t)
		e.ids[out] = id
		if bs.buf != nil {
			e.planned[bs.buf] = append(e.planned[bs.buf], id)
		}
		return nil
	}
	// Dynamic: et_view re-points the out tensor at its base's data at run time; the tensor
	// still carries the base's placement, as ExecuTorch's _ViewSpec shares it.
	e.store[out] = bs
	outID := e.add(t)
	e.ids[out] = outID
	if bs.buf != nil {
		e.planned[bs.buf] = append(e.planned[bs.buf], outID)
	} else {
		t.DataBufferIdx = bs.constIdx
	}
	size, err := e.argValue(n, SchemaArg{Name: "size", Type: "SymInt[]"}, n.Arg("size"))
	if err != nil {
		return err
	}
	e.instrs = append(e.instrs, pte.KernelCall{OpIndex: e.operator("executorch_prim::et_view", "default"), Args: []int32{e.ids[self], size, outID}})
	return nil
}

// emitSymSize runs aten::sym_size.int, which writes a symbolic size into an Int value at run
// time (ExecuTorch emits sym ops as kernels returning a boxed Int).
func (e *emitter) emitSymSize(n *ir.Node) error {
	if len(n.Outputs) != 1 || n.Outputs[0] == nil {
		return nodeErr(n, "sym_size has one output")
	}
	self := n.TensorArg("self")
	dim := n.Arg("dim")
	if self == nil || dim == nil || dim.Kind != ir.ArgInt {
		return nodeErr(n, "needs a tensor self and an int dim")
	}
	e.use(self)
	d := e.add(pte.Int{Val: dim.Int})
	ret := e.add(pte.Int{}) // the kernel overwrites it
	e.ids[n.Outputs[0]] = ret
	e.instrs = append(e.instrs, pte.KernelCall{OpIndex: e.operator("aten::sym_size", "int"), Args: []int32{e.ids[self], d, ret}})
	return nil
}

// emitPrimOp emits arithmetic on symbolic sizes (x.shape[0] * 2) as the ExecuTorch primitive
// operator kernel: its operands, symbolic values or numbers, then the value it writes.
func (e *emitter) emitPrimOp(n *ir.Node, kernel string) error {
	if len(n.Outputs) != 1 || n.Outputs[0] == nil {
		return nodeErr(n, "a symbolic operation has one output")
	}
	var args []int32
	for _, a := range n.Args {
		switch a.Kind {
		case ir.ArgSymInt:
			if len(a.Values) != 1 || a.Values[0] == nil {
				return nodeErr(n, "argument %s holds no symbolic value", a.Name)
			}
			id, err := e.ref(n, a.Values[0])
			if err != nil {
				return err
			}
			args = append(args, id)
		case ir.ArgInt:
			args = append(args, e.add(pte.Int{Val: a.Int}))
		case ir.ArgFloat:
			args = append(args, e.add(pte.Double{Val: a.Float}))
		case ir.ArgBool:
			args = append(args, e.add(pte.Bool{Val: a.Bool}))
		default:
			return nodeErr(n, "%w: argument %s of kind %d to %s", ErrUnsupported, a.Name, a.Kind, kernel)
		}
	}
	// The kernel overwrites the value; its initial kind says what it will hold.
	var ret int32
	switch out := n.Outputs[0]; out.Kind {
	case ir.SymIntValue:
		ret = e.add(pte.Int{})
	case ir.SymFloatValue:
		ret = e.add(pte.Double{})
	case ir.SymBoolValue:
		ret = e.add(pte.Bool{})
	default:
		return nodeErr(n, "%s returns a tensor, not a symbolic number", n.Target)
	}
	e.ids[n.Outputs[0]] = ret
	name, ov := splitKernel(kernel)
	e.instrs = append(e.instrs, pte.KernelCall{OpIndex: e.operator(name, ov), Args: append(args, ret)})
	return nil
}

func (e *emitter) operator(name, overload string) int32 {
	key := name + "." + overload
	if i, ok := e.opIndex[key]; ok {
		return i
	}
	i := int32(len(e.operators))
	e.operators = append(e.operators, pte.Operator{Name: name, Overload: overload})
	e.opIndex[key] = i
	return i
}

// splitKernel turns "aten::add.out" into the operator table entry ("aten::add", "out").
func splitKernel(k string) (string, string) {
	i := strings.LastIndexByte(k, '.')
	if i < 0 {
		return k, ""
	}
	name, ov := k[:i], k[i+1:]
	if ov == "default" {
		ov = ""
	}
	return name, ov
}

// emitKernel emits an Edge operator as a KernelCall of its out variant.
func (e *emitter) emitKernel(n *ir.Node) error {
	kernel, err := OutVariant(n.Target)
	if err != nil {
		return fmt.Errorf("emit: node %s: %w", n.Name, err)
	}
	sch, err := OutSchema(kernel)
	if err != nil {
		return fmt.Errorf("emit: node %s: %w", n.Name, err)
	}
	// The outputs first, as ExecuTorch's memory.alloc nodes precede their operator.
	outs, err := e.outputTensors(n, sch)
	if err != nil {
		return err
	}
	var args []int32
	var ret []int32 // what each out argument holds: a tensor id, or a TensorList id
	var retList [][]int32
	next := 0
	for _, sa := range sch.Args {
		if sa.Out {
			t := opschema.ParseType(sa.Type)
			if t.List {
				items := outs[next:]
				next = len(outs)
				id := e.add(pte.TensorList{Items: items})
				args = append(args, id)
				ret = append(ret, id)
				retList = append(retList, items)
				continue
			}
			if next >= len(outs) {
				return nodeErr(n, "out argument %s has no output (the node has %d)", sa.Name, len(outs))
			}
			args = append(args, outs[next])
			ret = append(ret, outs[next])
			retList = append(retList, nil)
			next++
			continue
		}
		id, err := e.argValue(n, sa, n.Arg(sa.Name))
		if err != nil {
			return err
		}
		args = append(args, id)
	}
	if next != len(outs) {
		return nodeErr(n, "%d outputs, but %s has %d out tensors", len(outs), kernel, next)
	}
	// Then the return: the out argument again, or a new TensorList of every out (ExecuTorch
	// boxes several returns, or one list return, into a list value).
	switch {
	case len(ret) == 1 && retList[0] == nil:
		args = append(args, ret[0])
	case len(ret) == 1:
		args = append(args, e.add(pte.TensorList{Items: retList[0]}))
	default:
		args = append(args, e.add(pte.TensorList{Items: ret}))
	}
	name, ov := splitKernel(kernel)
	e.instrs = append(e.instrs, pte.KernelCall{OpIndex: e.operator(name, ov), Args: args})
	return nil
}

// outputTensors emits a planned tensor for every output of n. Outputs the graph drops (nil in
// the IR: a batch norm's saved statistics, max_pool2d's indices) still need a tensor for the
// kernel to write; their metadata is inferred from the operator.
func (e *emitter) outputTensors(n *ir.Node, sch *Schema) ([]int32, error) {
	if len(n.Outputs) == 0 {
		return nil, nodeErr(n, "no outputs")
	}
	if order := dimOrderOf(n); order != nil && n.Outputs[0] != nil {
		e.dimOrder[n.Outputs[0]] = order
	} else {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v != nil && e.dimOrder[v] != nil {
					return nil, nodeErr(n, "%w: input %s is not contiguous (dim order %v); only dim-order ops may take such inputs", ErrUnsupported, v.Name, e.dimOrder[v])
				}
			}
		}
	}
	ids := make([]int32, len(n.Outputs))
	for i, v := range n.Outputs {
		var meta *ir.TensorMeta
		if v == nil {
			m, err := droppedOutput(n, i)
			if err != nil {
				return nil, err
			}
			meta = m
		} else if v.Kind != ir.TensorValue || v.Meta == nil {
			return nil, nodeErr(n, "%w: output %s is not a tensor", ErrUnsupported, v.Name)
		}
		id, err := e.newPlanned(v, meta)
		if err != nil {
			return nil, nodeErr(n, "output %d: %v", i, err)
		}
		ids[i] = id
	}
	return ids, nil
}

// dimOrderOf returns the dim order a dim-order op gives its output, or nil when contiguous.
func dimOrderOf(n *ir.Node) []uint8 {
	if n.Target != "dim_order_ops._to_dim_order_copy.default" && n.Target != "dim_order_ops._clone_dim_order.default" {
		return nil
	}
	a := n.Arg("dim_order")
	if a == nil || a.Kind != ir.ArgInts {
		return nil
	}
	order := make([]uint8, len(a.Ints))
	contiguous := true
	for i, d := range a.Ints {
		order[i] = uint8(d)
		if d != int64(i) {
			contiguous = false
		}
	}
	if contiguous {
		return nil
	}
	return order
}

// droppedOutput infers the metadata of output i of n, which the graph does not use.
func droppedOutput(n *ir.Node, i int) (*ir.TensorMeta, error) {
	in := n.TensorArg("self")
	if in == nil {
		in = n.TensorArg("input")
	}
	unsupported := func() (*ir.TensorMeta, error) {
		return nil, nodeErr(n, "%w: output %d is unused and etgo cannot infer its shape for this operator", ErrUnsupported, i)
	}
	if in == nil || in.Meta == nil {
		return unsupported()
	}
	like := func(dt ir.DType, sizes []ir.Dim) *ir.TensorMeta {
		return &ir.TensorMeta{DType: dt, Sizes: append([]ir.Dim(nil), sizes...)}
	}
	switch n.Target {
	case "aten._native_batch_norm_legit_no_training.default":
		// The saved mean and inverse std are empty in inference (the CPU kernel returns [0]).
		if i > 0 {
			return like(in.Meta.DType, []ir.Dim{{Size: 0}}), nil
		}
	case "aten.native_layer_norm.default":
		if i > 0 {
			norm := n.IntsArg("normalized_shape", nil)
			sizes := like(in.Meta.DType, in.Meta.Sizes).Sizes
			if len(norm) > len(sizes) {
				return unsupported()
			}
			for k := len(sizes) - len(norm); k < len(sizes); k++ {
				sizes[k] = ir.Dim{Size: 1}
			}
			return &ir.TensorMeta{DType: in.Meta.DType, Sizes: sizes}, nil
		}
	case "aten.max_pool2d_with_indices.default", "aten.max.dim", "aten.min.dim", "aten.sort.default", "aten.topk.default":
		// Values and indices have the same shape.
		if len(n.Outputs) != 2 {
			return unsupported()
		}
		if other := n.Outputs[1-i]; other != nil && other.Meta != nil {
			if i == 1 {
				return like(ir.Int64, other.Meta.Sizes), nil
			}
			return like(in.Meta.DType, other.Meta.Sizes), nil
		}
	case "aten.native_dropout.default":
		if i == 1 {
			return like(ir.Bool, in.Meta.Sizes), nil
		}
		return like(in.Meta.DType, in.Meta.Sizes), nil
	case "aten.split_with_sizes_copy.default":
		sizes := n.IntsArg("split_sizes", nil)
		dim := n.IntArg("dim", 0)
		if dim < 0 {
			dim += int64(len(in.Meta.Sizes))
		}
		if i < len(sizes) && dim >= 0 && int(dim) < len(in.Meta.Sizes) {
			m := like(in.Meta.DType, in.Meta.Sizes)
			m.Sizes[dim] = ir.Dim{Size: sizes[i]}
			return m, nil
		}
	}
	return unsupported()
}

// emptyTensor is what ExecuTorch writes for a required Tensor argument given as None: an
// unplanned, empty byte tensor.
func emptyTensor() *pte.Tensor {
	return &pte.Tensor{ScalarType: schema.ScalarTypeBYTE, Sizes: []int32{0}, DimOrder: []uint8{0}}
}

// argValue emits one non-out argument of a kernel call: the node's value, or the schema's
// default when the node omits it.
func (e *emitter) argValue(n *ir.Node, sa SchemaArg, a *ir.Arg) (int32, error) {
	t := opschema.ParseType(sa.Type)
	if a == nil {
		if sa.Default == nil {
			if t.Optional {
				return e.add(pte.Null{}), nil
			}
			return 0, nodeErr(n, "required argument %s (%s) is missing", sa.Name, sa.Type)
		}
		return e.defaultValue(t, sa.Default), nil
	}
	if t.IsTensor() && !t.List && (a.Kind == ir.ArgInt || a.Kind == ir.ArgFloat || a.Kind == ir.ArgBool) {
		return e.scalarTensor(a), nil
	}
	switch a.Kind {
	case ir.ArgNone:
		if t.IsTensor() && !t.Optional && !t.List {
			return e.add(emptyTensor()), nil
		}
		return e.add(pte.Null{}), nil
	case ir.ArgTensor:
		if len(a.Values) != 1 || a.Values[0] == nil {
			return 0, nodeErr(n, "argument %s holds no tensor", sa.Name)
		}
		return e.ref(n, a.Values[0])
	case ir.ArgTensors, ir.ArgOptionalTensors:
		items := make([]int32, len(a.Values))
		for i, v := range a.Values {
			if v == nil {
				if a.Kind == ir.ArgTensors || !t.ElemOptional {
					return 0, nodeErr(n, "argument %s item %d is None", sa.Name, i)
				}
				items[i] = -1
				continue
			}
			id, err := e.ref(n, v)
			if err != nil {
				return 0, err
			}
			items[i] = id
		}
		if t.ElemOptional {
			return e.add(pte.OptionalTensorList{Items: items}), nil
		}
		return e.add(pte.TensorList{Items: items}), nil
	case ir.ArgMemoryFormat:
		// torch.export numbers memory formats as its serialiser does; a program holds
		// ExecuTorch's enum (exir.tensor.memory_format_enum), which has only these two.
		switch a.Int {
		case 1: // torch.contiguous_format
			return e.add(pte.Int{Val: 0}), nil
		case 4: // torch.preserve_format
			return e.add(pte.Int{Val: 1}), nil
		}
		return 0, nodeErr(n, "argument %s: memory format %d is unsupported in ExecuTorch (only contiguous and preserve)", sa.Name, a.Int)
	case ir.ArgInt, ir.ArgScalarType, ir.ArgLayout:
		return e.add(pte.Int{Val: a.Int}), nil
	case ir.ArgFloat:
		return e.add(pte.Double{Val: a.Float}), nil
	case ir.ArgBool:
		return e.add(pte.Bool{Val: a.Bool}), nil
	case ir.ArgString:
		return e.add(pte.String{Val: a.Str}), nil
	case ir.ArgInts, ir.ArgSymInts:
		if t.Base == "float" {
			fs := make([]float64, len(a.Ints))
			for i, x := range a.Ints {
				fs[i] = float64(x)
			}
			return e.add(pte.DoubleList{Items: fs}), nil
		}
		// Int lists are boxed: each item is the index of an Int value, so that a symbolic item
		// can be the Int a sym op writes at run time.
		items := make([]int64, len(a.Ints))
		for i, x := range a.Ints {
			if i < len(a.Values) && a.Values[i] != nil {
				id, err := e.ref(n, a.Values[i])
				if err != nil {
					return 0, err
				}
				items[i] = int64(id)
				continue
			}
			items[i] = int64(e.add(pte.Int{Val: x}))
		}
		return e.add(pte.IntList{Items: items}), nil
	case ir.ArgSymInt:
		if len(a.Values) != 1 || a.Values[0] == nil {
			return 0, nodeErr(n, "argument %s holds no symbolic value", sa.Name)
		}
		return e.ref(n, a.Values[0])
	case ir.ArgFloats:
		return e.add(pte.DoubleList{Items: append([]float64{}, a.Floats...)}), nil
	case ir.ArgBools:
		return e.add(pte.BoolList{Items: append([]bool{}, a.Bools...)}), nil
	}
	return 0, nodeErr(n, "%w: argument %s of kind %d (%s)", ErrUnsupported, sa.Name, a.Kind, sa.Type)
}

// scalarTensor emits a number passed where the schema wants a Tensor (mul.Tensor(x, 0.5)) as a
// 0-dim constant tensor, as Edge's ScalarToTensorPass and constant lifting make it: float32 for
// a float, int64 for an int, bool for a bool (torch.tensor's defaults).
func (e *emitter) scalarTensor(a *ir.Arg) int32 {
	var data []byte
	var dt schema.ScalarType
	switch a.Kind {
	case ir.ArgFloat:
		dt, data = schema.ScalarTypeFLOAT, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(a.Float)))
	case ir.ArgInt:
		dt, data = schema.ScalarTypeLONG, binary.LittleEndian.AppendUint64(nil, uint64(a.Int))
	default:
		dt, data = schema.ScalarTypeBOOL, []byte{0}
		if a.Bool {
			data[0] = 1
		}
	}
	return e.add(&pte.Tensor{ScalarType: dt, Sizes: []int32{}, DimOrder: []uint8{}, DataBufferIdx: e.constant(data)})
}

// constant stores constant bytes once (ExecuTorch deduplicates constants by content) and
// returns their DataBufferIdx.
func (e *emitter) constant(data []byte) uint32 {
	idx, ok := e.constIdx[string(data)]
	if !ok {
		idx = uint32(len(e.constants))
		e.constIdx[string(data)] = idx
		e.constants = append(e.constants, data)
	}
	return idx
}

// ref is the value index of an argument value, and marks it used here.
func (e *emitter) ref(n *ir.Node, v *ir.Value) (int32, error) {
	id, ok := e.ids[v]
	if !ok {
		return 0, nodeErr(n, "argument %s is not produced before it is used", v.Name)
	}
	e.use(v)
	return id, nil
}

func (e *emitter) defaultValue(t opschema.Type, d *Default) int32 {
	switch d.Kind {
	case opschema.DefaultInt:
		return e.add(pte.Int{Val: d.Int})
	case opschema.DefaultFloat:
		return e.add(pte.Double{Val: d.Float})
	case opschema.DefaultBool:
		return e.add(pte.Bool{Val: d.Bool})
	case opschema.DefaultString:
		return e.add(pte.String{Val: d.Str})
	case opschema.DefaultInts:
		items := make([]int64, len(d.Ints))
		for i, x := range d.Ints {
			items[i] = int64(e.add(pte.Int{Val: x}))
		}
		return e.add(pte.IntList{Items: items})
	case opschema.DefaultFloats:
		return e.add(pte.DoubleList{Items: append([]float64{}, d.Floats...)})
	case opschema.DefaultBools:
		return e.add(pte.BoolList{Items: append([]bool{}, d.Bools...)})
	}
	if t.IsTensor() && !t.Optional && !t.List {
		return e.add(emptyTensor())
	}
	return e.add(pte.Null{})
}

// emitDelegate emits an executorch_call_delegate node: its outputs as planned tensors, the
// backend's blob (preprocessed now), and a DelegateCall on the inputs then the outputs.
func (e *emitter) emitDelegate(n *ir.Node) error {
	var d *partition.Delegate
	for i := range e.plan.Delegates {
		if e.plan.Delegates[i].Call == n {
			d = &e.plan.Delegates[i]
		}
	}
	if d == nil {
		return nodeErr(n, "no delegate in the plan for this call")
	}
	pre := e.opts.Preprocess[d.Spec.BackendID]
	if pre == nil {
		return nodeErr(n, "no preprocess for backend %s (Options.Preprocess)", d.Spec.BackendID)
	}
	blob, named, err := pre(d)
	if err != nil {
		return nodeErr(n, "%s preprocess: %w", d.Spec.BackendID, err)
	}
	for _, nb := range named {
		if k, ok := e.namedIdx[nb.Key]; ok {
			if string(e.named[k].Data) != string(nb.Data) {
				return nodeErr(n, "named data %q differs from another delegate's entry with the same key", nb.Key)
			}
			e.named[k].Alignment = max(e.named[k].Alignment, nb.Alignment)
			continue
		}
		e.namedIdx[nb.Key] = len(e.named)
		e.named = append(e.named, nb)
	}
	var args []int32
	if len(n.Args) != 1 || (n.Args[0].Kind != ir.ArgTensors && n.Args[0].Kind != ir.ArgOptionalTensors) {
		return nodeErr(n, "a delegate call takes one list of inputs")
	}
	for _, v := range n.Args[0].Values {
		if v == nil {
			return nodeErr(n, "a delegate input is None")
		}
		id, err := e.ref(n, v)
		if err != nil {
			return err
		}
		args = append(args, id)
	}
	for _, v := range n.Outputs {
		if v == nil {
			return nodeErr(n, "a delegate output is missing")
		}
		if v.Kind != ir.TensorValue || v.Meta == nil {
			return nodeErr(n, "%w: delegate output %s is not a tensor", ErrUnsupported, v.Name)
		}
		id, err := e.newPlanned(v, nil)
		if err != nil {
			return nodeErr(n, "output %s: %v", v.Name, err)
		}
		args = append(args, id)
	}
	// Identical blobs are stored once, as ExecuTorch dedups them by hash.
	idx := -1
	for i, b := range e.blobs {
		if string(b) == string(blob) {
			idx = i
			break
		}
	}
	if idx < 0 {
		idx = len(e.blobs)
		e.blobs = append(e.blobs, blob)
	}
	specs := make([]pte.CompileSpec, len(d.Spec.CompileSpecs))
	for i, cs := range d.Spec.CompileSpecs {
		specs[i] = pte.CompileSpec{Key: cs.Key, Value: append([]byte{}, cs.Value...)}
	}
	e.delegates = append(e.delegates, pte.BackendDelegate{
		ID:           d.Spec.BackendID,
		Processed:    &pte.DataReference{Location: schema.DataLocationINLINE, Index: uint32(idx)},
		CompileSpecs: specs,
	})
	e.instrs = append(e.instrs, pte.DelegateCall{DelegateIndex: int32(len(e.delegates) - 1), Args: args})
	return nil
}

func (e *emitter) contents() *pte.Contents {
	meta := e.opts.ContainerMetadata
	if meta == nil {
		meta = containerMetadata(e.inputs, e.g)
	}
	plan := &pte.ExecutionPlan{
		Name:                e.opts.Method,
		ContainerMetaType:   meta,
		Values:              e.values,
		Inputs:              nonNil(e.inputs),
		Outputs:             nonNil(e.outputs),
		Chains:              []pte.Chain{{Inputs: []int32{}, Outputs: []int32{}, Instructions: nonNilInstr(e.instrs)}},
		Operators:           append([]pte.Operator{}, e.operators...),
		Delegates:           append([]pte.BackendDelegate{}, e.delegates...),
		NonConstBufferSizes: []int64{0, e.plannedSize},
	}
	c := &pte.Contents{
		Program:      &pte.Program{ExecutionPlans: []*pte.ExecutionPlan{plan}},
		Constants:    e.constants,
		DelegateData: e.blobs,
	}
	if len(e.named) > 0 {
		c.NamedData = e.named
	}
	return c
}

func nonNil(s []int32) []int32 {
	if s == nil {
		return []int32{}
	}
	return s
}

func nonNilInstr(s []pte.Instruction) []pte.Instruction {
	if s == nil {
		return []pte.Instruction{}
	}
	return s
}

// containerMetadata derives the pytree strings torch.export records for the common signature:
// forward(*tensors) returning one tensor or a tuple, in torch's treespec JSON (the encoding the
// pip build of ExecuTorch writes).
func containerMetadata(inputs []int32, g *ir.Graph) *pte.ContainerMetadata {
	const leaf = `{"type": null, "context": null, "children_spec": []}`
	tuple := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = leaf
		}
		return `{"type": "builtins.tuple", "context": "null", "children_spec": [` + strings.Join(items, ", ") + `]}`
	}
	in := `[1, {"type": "builtins.tuple", "context": "null", "children_spec": [` + tuple(len(inputs)) +
		`, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}]`
	nout := 0
	for _, o := range g.Outputs {
		if o.Kind == ir.UserOutput {
			nout++
		}
	}
	out := `[1, ` + tuple(nout) + `]`
	if nout == 1 {
		out = `[1, ` + leaf + `]`
	}
	return &pte.ContainerMetadata{EncodedInpStr: in, EncodedOutStr: out}
}
