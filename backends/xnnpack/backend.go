package xnnpack

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/internal/workpool"
)

// BackendID is the id ExecuTorch's delegates name this backend by.
const BackendID = xnngraph.BackendID

// ErrInvalidBlob is wrapped when a blob is malformed or inconsistent (xnngraph's error).
var ErrInvalidBlob = xnngraph.ErrInvalidBlob

// ErrUnsupported is wrapped when a blob uses a node type or datatype this backend does not run.
var ErrUnsupported = errors.New("unsupported by etgo's XNNPACK backend")

// Backend executes XNNPACK delegate blobs. Each Init builds an independent plan, so one Backend
// serves any number of Methods.
type Backend struct {
	// Threads is how many goroutines one delegate call may use for its convolutions and
	// matrix products (0 or 1: the calling goroutine only, the default).
	Threads int
}

// Register adds a single-threaded backend to a registry under BackendID.
func Register(r *executor.Registry) error { return r.RegisterBackend(BackendID, Backend{}) }

// IsAvailable is true: the backend is pure Go.
func (Backend) IsAvailable() bool { return true }

// Init parses and verifies the blob, resolves its constants (from the blob or the program's
// named data) and builds an execution plan. The plan does not keep the blob.
func (b Backend) Init(ctx *executor.BackendInitContext, processed []byte, specs []executor.CompileSpec) (executor.DelegateHandle, error) {
	g, err := xnngraph.ParseBlob(processed)
	if err != nil {
		return nil, err
	}
	p, err := newPlanFor(g, ctx.NamedData, ctx.Calls)
	if err != nil {
		return nil, err
	}
	p.threads = max(b.Threads, 1)
	return p, nil
}

// checkCalls checks the graph against the delegate's calls: every external value is an argument
// of the right kind (a float32 tensor, int8 for qint8 codes), and the shapes propagate from the
// call's input tensors through every node (the official runtime does the same when it executes,
// from the tensors it is given; the program's declared sizes are those tensors' sizes, or their
// bounds). Without calls (a blob initialised outside a method) the blob's declared input dims
// stand in.
func (p *plan) checkCalls(calls [][]*executor.EValue) error {
	if len(calls) == 0 {
		shapes, err := p.g.InferShapes(p.order, func(i int) []int { return xnngraph.DimsOf(p.g.Values[i].Dims) })
		if err != nil {
			return err
		}
		return p.g.WithinDeclared(shapes)
	}
	for c, args := range calls {
		inputs := map[int][]int{}
		for _, i := range append(slices.Clone(p.inputs), p.outputs...) {
			v := &p.g.Values[i]
			t, err := p.external(i, args)
			if err != nil {
				return fmt.Errorf("%w: call %d: %w", xnngraph.ErrInvalidBlob, c, err)
			}
			if v.IsInput() {
				inputs[i] = p.inputDims(i, t)
			}
		}
		shapes, err := p.g.InferShapes(p.order, func(i int) []int { return inputs[i] })
		if err == nil {
			err = p.g.WithinDeclared(shapes)
		}
		if err != nil {
			return fmt.Errorf("%w (with the shapes of call %d's tensors)", err, c)
		}
	}
	return nil
}

// inputDims is the shape graph input i takes from tensor t: its sizes, a rank-0 tensor being
// [1] where the graph declares one dim (XNNPACK writes a scalar so).
func (p *plan) inputDims(i int, t *executor.Tensor) []int {
	dims := slices.Clone(t.Sizes())
	if len(dims) == 0 && len(p.g.Values[i].Dims) == 1 {
		dims = []int{1}
	}
	return dims
}

// external returns the delegate call argument bound to external value i, checked: a tensor of
// the dtype the graph takes, in the default dim order.
func (p *plan) external(i int, args []*executor.EValue) (*executor.Tensor, error) {
	v := &p.g.Values[i]
	id := int(v.ExternalID)
	if id >= len(args) || args[id] == nil || args[id].Tag != executor.TagTensor || args[id].Tensor == nil {
		return nil, fmt.Errorf("%w: delegate argument %d (value %d) is not a tensor (the call has %d arguments)", executor.ErrInvalidArgument, id, v.ID, len(args))
	}
	t := args[id].Tensor
	want := executor.Float32
	if p.quant[i] != nil {
		want = executor.Int8 // qint8 codes
	} else if p.f16[i] {
		want = executor.Float16
	} else if p.bf16[i] {
		want = executor.BFloat16
	}
	if t.ScalarType() != want {
		return nil, fmt.Errorf("%w: delegate argument %d is %s, the graph takes %s", executor.ErrInvalidArgument, id, executor.DTypeName(t.ScalarType()), executor.DTypeName(want))
	}
	if !t.IsContiguous() {
		return nil, fmt.Errorf("%w: delegate argument %d has dim order %v; delegate boundaries use the default", executor.ErrInvalidArgument, id, t.DimOrder())
	}
	return t, nil
}

// Execute runs a plan on the delegate call's arguments (inputs, then outputs). It checks the
// call's context before every node and, once the context is done, returns its error wrapped
// with the node it stopped at: a cancelled call waits for at most the node running (the graph's
// largest convolution, milliseconds at most on the zoo's full-size models), not the whole graph.
// (The runtime checks again after the call.)
func (Backend) Execute(ctx *executor.BackendExecutionContext, h executor.DelegateHandle, args []*executor.EValue) error {
	p, ok := h.(*plan)
	if !ok {
		return fmt.Errorf("%w: not an XNNPACK delegate handle", executor.ErrInvalidArgument)
	}
	c := context.Background()
	if ctx != nil && ctx.Context != nil {
		c = ctx.Context
	}
	return p.run(c, args, ctx)
}

// Destroy releases nothing: plans are garbage collected.
func (Backend) Destroy(executor.DelegateHandle) {}

// tensor is a value during execution: NHWC or plain row-major, as the graph says.
//
// Its storage is typed by its datatype: an fp32 value's elements are in data, a qint8 value's
// codes in q; a quantized constant (int8 filter, int32 bias) holds its elements widened in ints,
// and a qint8 constant its codes in q too, for the kernels that read it as an activation (see
// quant.go).
type tensor struct {
	dims []int
	data []float32
	q    []int8
	ints []int32
	// rows is a qdint8 value's parameters, one per row (quant_dynamic.go).
	rows []rowQuant
	// f16in is an fp16 graph input's values widened to fp32 (node_fp16.go).
	f16in []float32
}

func (t *tensor) numel() int {
	n := 1
	for _, d := range t.dims {
		n *= d
	}
	return n
}

// plan is a compiled graph: one tensor per value, constants resolved, nodes in order.
type plan struct {
	g    *xnngraph.Graph
	vals []tensor
	// packedFilters[i] counts the nodes that packed constant value i's widened codes for their
	// kernels and no longer read them (dynamicLinear); releasePackedFilters drops the codes of
	// the values every reader of which did.
	packedFilters map[int]int
	index         map[uint32]int // value id -> index
	isConst       []bool
	// quant[i] is value i's quantization (nil for fp32 values).
	quant []*qinfo
	// f16[i]: value i is fp16, kept as fp32 numbers fp16 can hold (node_fp16.go).
	f16    []bool
	hasF16 bool
	// bf16[i]: value i is bf16 at the graph's edge, computed as fp32 inside (node_bf16.go).
	bf16    []bool
	hasBF16 bool
	inputs  []int // value indices of external inputs
	outputs []int
	// order lists the nodes that run (indices into g.Nodes), in their order (Graph.schedule);
	// steps[k] runs node order[k].
	order   []int
	steps   []step
	threads int
	// releaseAfter[k] lists the values whose last reader is node k: their memory returns to the
	// pool after node k runs and the next outputs reuse it, so the working set stays in cache
	// (as XNNPACK's own memory planning does) instead of every value holding its own buffer.
	releaseAfter [][]int
	// freedAt[i] is the step after which value i's memory returns to the pool (-1: never), and
	// step the step running: a reshape whose input dies with it takes the input's buffer.
	freedAt []int
	step    int
	// outBound[i] says fp32 output value i's storage is the caller's output tensor this call
	// (bindOutputs), so the last node writes it in place and the copy-out is skipped.
	outBound []bool
	pool     [][]float32
	qpool    [][]int8 // the same for qint8 values' codes
	// packed holds filters packed once at init for nodes whose filter is a constant: one packed
	// matrix per convolution group, or the fully connected layer's [in, out] matrix.
	packed map[*xnngraph.Node][]*gemm.PackedB
	// convRecs holds each fp32 convolution node's operand record, reused across calls.
	convRecs map[*xnngraph.Node]*fp32Conv
	// fusedAct holds the activations folded into their producers (fuseActivations).
	fusedAct map[*xnngraph.Node]actFunc
	// dwTaps caches each depthwise node's indirection table for the input shape it last saw.
	dwTaps map[*xnngraph.Node]*dwTable
	// bmmPacked holds each batch matrix multiply's packed B matrices, repacked in place on every run.
	bmmPacked map[*xnngraph.Node][]*gemm.PackedB
	// work is scratch memory reused across nodes and calls (a convolution's patch matrix);
	// colPool holds per-task patch blocks for convolutions too large to expand whole. iwork and
	// icolPool are the same for the integer kernels' patches (centered codes, int32).
	work     []float32
	colPool  sync.Pool
	iwork    []int32
	icolPool sync.Pool
	// qlinears holds the quantized (depthwise, transposed) convolutions and fully connected
	// layers' operands, for fuseQuantClamps.
	qlinears map[*xnngraph.Node]*qlinear
}

// scratch returns the plan's reusable fp32 work buffer with n values (contents undefined).
func (p *plan) scratch(n int) []float32 { return scratchOf[float32](p, n) }

// scratchOf is scratch for the element type T.
func scratchOf[T float32 | int32](p *plan, n int) []T {
	w, ok := any(&p.work).(*[]T)
	if !ok {
		w = any(&p.iwork).(*[]T)
	}
	if cap(*w) < n {
		*w = make([]T, n)
	}
	return (*w)[:n]
}

// colPoolOf is the plan's pool of per-task patch blocks of T (*[]T).
func colPoolOf[T float32 | int32](p *plan) *sync.Pool {
	if _, ok := any(&p.work).(*[]T); ok {
		return &p.colPool
	}
	return &p.icolPool
}

type step struct {
	node *xnngraph.Node
	run  runFunc
	// event names the node's ETDump event: its XNNPACK operator and that operator's count in
	// the plan so far ("Add (ND) #2"), as XNNPACK's profiler numbers them.
	event string
	// ownRange: the kernel applies the node's output range itself (fused into an fp32 GEMM's
	// store, nodeKernel.ownRange; quantized kernels clamp in codes, so the fp32 clamp must not
	// run on their outputs).
	ownRange bool
}

// newPlan builds a plan checked against the blob's own declared input dims.
func newPlan(g *xnngraph.Graph, named func(string) ([]byte, error)) (*plan, error) {
	return newPlanFor(g, named, nil)
}

// newPlanFor builds a plan for a delegate with these calls (see checkCalls).
func newPlanFor(g *xnngraph.Graph, named func(string) ([]byte, error), calls [][]*executor.EValue) (*plan, error) {
	p := &plan{g: g, vals: make([]tensor, len(g.Values)), index: map[uint32]int{}, isConst: make([]bool, len(g.Values)),
		quant: make([]*qinfo, len(g.Values)), f16: make([]bool, len(g.Values)), bf16: make([]bool, len(g.Values)), threads: 1}
	p.colPool.New = func() any { return new([]float32) }
	p.icolPool.New = func() any { return new([]int32) }
	for i := range g.Values {
		v := &g.Values[i]
		p.index[v.ID] = i
		if v.Quant != nil {
			q, err := resolveQuant(g, v, named)
			if err != nil {
				return nil, err
			}
			if v.Flags != 0 && q.dtype != schema.XNNDatatypexnn_datatype_qint8 {
				// (A qint8 boundary value is an int8 tensor: a quantized constant the program
				// passes in, say.)
				return nil, fmt.Errorf("%w: value %d is a %s graph input or output; quantized boundary values run as qint8 only", ErrUnsupported, v.ID, v.DType)
			}
			p.quant[i] = q
		} else if v.DType == schema.XNNDatatypexnn_datatype_fp16 {
			p.f16[i], p.hasF16 = true, true // (node_fp16.go)
		} else if v.DType == schema.XNNDatatypexnn_datatype_bf16 {
			p.bf16[i], p.hasBF16 = true, true // (node_bf16.go)
		} else if v.DType != schema.XNNDatatypexnn_datatype_fp32 {
			return nil, fmt.Errorf("%w: value %d has datatype %s; unquantized values run as fp32, fp16 or bf16 only", ErrUnsupported, v.ID, v.DType)
		}
		dims := make([]int, len(v.Dims))
		for k, d := range v.Dims {
			dims[k] = int(d)
		}
		p.vals[i].dims = dims
		switch {
		case v.ConstantIdx != 0 && p.quant[i] != nil:
			ints, err := quantConstant(g, v, named)
			if err != nil {
				return nil, err
			}
			p.vals[i].ints, p.isConst[i] = ints, true
			if v.DType == schema.XNNDatatypexnn_datatype_qint8 {
				// Also as codes, for the kernels that read a qint8 operand as an activation
				// (a constant addend).
				p.vals[i].q = make([]int8, len(ints))
				for k, c := range ints {
					p.vals[i].q[k] = int8(c)
				}
			}
		case v.ConstantIdx != 0 && p.f16[i]:
			data, err := constant16(g, v, named, "fp16", f16ToF32)
			if err != nil {
				return nil, err
			}
			p.vals[i].data, p.isConst[i] = data, true
		case v.ConstantIdx != 0 && p.bf16[i]:
			data, err := constant16(g, v, named, "bf16", bf16ToF32)
			if err != nil {
				return nil, err
			}
			p.vals[i].data, p.isConst[i] = data, true
		case v.ConstantIdx != 0:
			data, err := constant(g, v, named)
			if err != nil {
				return nil, err
			}
			p.vals[i].data, p.isConst[i] = data, true
		case v.IsInput():
			p.inputs = append(p.inputs, i)
		}
		if v.IsOutput() {
			p.outputs = append(p.outputs, i)
		}
	}
	if p.hasBF16 {
		if err := p.checkBF16Nodes(); err != nil { // (node_bf16.go)
			return nil, err
		}
	}
	order, err := g.Schedule()
	if err != nil {
		return nil, err
	}
	// Every node's operation and datatypes are checked, as the official runtime defines every
	// node; only the scheduled ones run, in their order.
	steps := make([]step, len(g.Nodes))
	for k := range g.Nodes {
		n := &g.Nodes[k]
		if p.touchesQuant(n) {
			run, err := p.quantStep(k, n)
			if err != nil {
				return nil, err
			}
			steps[k] = step{node: n, run: run, ownRange: true}
			continue
		}
		kern := kernelOf(n.Op)
		if kern == nil || kern.run == nil {
			return nil, fmt.Errorf("%w: node %d is %s", ErrUnsupported, k, n.OpName())
		}
		steps[k] = step{node: n, run: kern.run, ownRange: kern.ownRange}
	}
	p.order = order
	for _, k := range order {
		p.steps = append(p.steps, steps[k])
	}
	p.releasePackedFilters()
	// Before fuseActivations rewires the plan's nodes: the graph is checked as written.
	if err := p.checkCalls(calls); err != nil {
		return nil, err
	}
	p.fuseActivations()
	if p.hasF16 {
		if err := p.f16Kernels(); err != nil { // (node_fp16.go)
			return nil, err
		}
	}
	p.fuseQuantClamps()
	p.planReuse()
	seen := map[string]int{}
	for i := range p.steps {
		name, ok := p.dynamicOperator(p.steps[i].node)
		if !ok {
			name = operatorName(p.steps[i].node, p.touchesQuant(p.steps[i].node))
			if p.hasF16 {
				name = p.f16Operator(p.steps[i].node, name) // (node_fp16.go)
			}
		}
		seen[name]++
		p.steps[i].event = fmt.Sprintf("%s #%d", name, seen[name])
	}
	// Pack constant filters once (the fp32 prepare step of the types that have one).
	p.packed = map[*xnngraph.Node][]*gemm.PackedB{}
	for _, s := range p.steps {
		n := s.node
		if len(n.Inputs) < 2 || n.Inputs[1] == xnngraph.InvalidID || !p.isConst[p.index[n.Inputs[1]]] || p.touchesQuant(n) {
			continue // (quantized layers read their int filters directly)
		}
		if kern := kernelOf(n.Op); kern != nil && kern.pack != nil {
			if pw := kern.pack(n, &p.vals[p.index[n.Inputs[1]]]); pw != nil {
				p.packed[n] = pw
			}
		}
	}
	return p, nil
}

// releasePackedFilters drops the widened int32 codes of constant filters that every node reading
// them has packed (4 bytes a 4-bit weight, beside the packed copy's half byte: without this an
// 8da4w stories110M-class decoder kept 1.9 GB live for a 160 MB file).
func (p *plan) releasePackedFilters() {
	if len(p.packedFilters) == 0 {
		return
	}
	readers := map[int]int{}
	for k := range p.g.Nodes {
		for _, id := range p.g.Nodes[k].Inputs {
			if id != xnngraph.InvalidID {
				if i, ok := p.index[id]; ok && p.packedFilters[i] > 0 {
					readers[i]++
				}
			}
		}
	}
	for i, packed := range p.packedFilters {
		if readers[i] == packed {
			p.vals[i].ints = nil
		}
	}
}

// fuseActivations folds an activation (a type with nodeKernel.activation: hardswish) that is the
// only reader of the output of a node that takesActivation (a convolution, depthwise convolution
// or fully connected layer) into that node: the producer writes the activation's output value
// and applies it to each chunk it computes, while the chunk is still in cache, instead of a
// separate pass over memory (MobileNetV3's layers mostly end this way). The activation's step
// becomes a no-op. Node outputs are rewired in the plan's own copy of the graph.
func (p *plan) fuseActivations() {
	readers := map[uint32][]int{} // value id -> the steps reading it
	for k, s := range p.steps {
		for _, id := range s.node.Inputs {
			if id != xnngraph.InvalidID {
				readers[id] = append(readers[id], k)
			}
		}
	}
	for k := range p.steps {
		n := p.steps[k].node
		if kern := kernelOf(n.Op); kern == nil || !kern.takesActivation {
			continue
		}
		if len(n.Outputs) != 1 || n.Outputs[0] == xnngraph.InvalidID || p.g.Values[p.index[n.Outputs[0]]].IsOutput() || p.touchesQuant(n) ||
			p.f16[p.index[n.Outputs[0]]] || p.bf16[p.index[n.Outputs[0]]] {
			continue // (a quantized producer writes codes, not values a hardswish could take; an fp16 or bf16 one rounds its output first)
		}
		rs := readers[n.Outputs[0]]
		if p.fuseSiLUInto(k, rs, readers) {
			continue
		}
		if len(rs) != 1 || rs[0] <= k {
			continue
		}
		h := p.steps[rs[0]].node
		hk := kernelOf(h.Op)
		if hk == nil || hk.activation == nil || len(h.Inputs) != 1 || len(h.Outputs) != 1 || h.Outputs[0] == xnngraph.InvalidID ||
			!math.IsInf(float64(h.OutputMin), -1) || !math.IsInf(float64(h.OutputMax), 1) {
			continue
		}
		f := hk.activation
		p.fuseInto(n, h.Outputs[0], func(d []float32, _ int) { f(d) }, rs[0])
	}
	p.fuseSiLU(readers) // (the SiLUs no producer took)
}

// fuseInto makes producer n write value out, applying act to each chunk it computes, and the
// steps in dead no-ops: they read and write nothing, as their producer did their work.
func (p *plan) fuseInto(n *xnngraph.Node, out uint32, act actFunc, dead ...int) {
	if p.fusedAct == nil {
		p.fusedAct = map[*xnngraph.Node]actFunc{}
	}
	n.Outputs = []uint32{out}
	p.fusedAct[n] = act
	for _, k := range dead {
		h := p.steps[k].node
		h.Inputs, h.Outputs = nil, nil
		p.steps[k].run = func(*plan, *xnngraph.Node) error { return nil }
	}
}

// actFunc is an activation fused into a producer: it applies it in place to d, elements
// [off, off+len(d)) of the producer's output (SiLU's numerics depend on where in the tensor an
// element is, see gemm.SiLUAt).
type actFunc func(d []float32, off int)

// act is the activation fused into node n's output (nil for none): producers apply it to each
// chunk of output right after computing it.
func (p *plan) act(n *xnngraph.Node) actFunc { return p.fusedAct[n] }

// planReuse computes, for each intermediate value, the node after which nothing reads it.
// External values (the caller's memory, or copied out at the end) and constants are never pooled.
func (p *plan) planReuse() {
	last := make([]int, len(p.vals))
	for i := range last {
		last[i] = -1
	}
	produced := make([]bool, len(p.vals))
	for k, s := range p.steps {
		n := s.node
		for _, id := range n.Inputs {
			if id != xnngraph.InvalidID {
				last[p.index[id]] = k
			}
		}
		for _, id := range n.Outputs {
			if id != xnngraph.InvalidID {
				produced[p.index[id]] = true
				last[p.index[id]] = max(last[p.index[id]], k) // an unread output frees after its node
			}
		}
	}
	p.releaseAfter = make([][]int, len(p.steps))
	p.freedAt = make([]int, len(p.vals))
	for i, k := range last {
		v := &p.g.Values[i]
		p.freedAt[i] = -1
		if k < 0 || !produced[i] || p.isConst[i] || v.IsInput() || v.IsOutput() {
			continue
		}
		p.releaseAfter[k] = append(p.releaseAfter[k], i)
		p.freedAt[i] = k
	}
}

// release returns the memory of values nothing reads any more to the pool.
func (p *plan) release(k int) {
	for _, i := range p.releaseAfter[k] {
		if d := p.vals[i].data; cap(d) > 0 {
			p.pool = append(p.pool, d[:cap(d)])
		}
		if d := p.vals[i].q; cap(d) > 0 {
			p.qpool = append(p.qpool, d[:cap(d)])
		}
		// A stale read now fails in p.in instead of seeing reused memory.
		p.vals[i].data, p.vals[i].q = nil, nil
	}
}

// parallel splits rows [0, n) into chunks (multiples of unit rows, so GEMM tiles stay whole) and
// runs f on each across the plan's threads. There are a few chunks per thread, claimed
// dynamically, so a thread slowed by the machine's other load does not hold the others up.
//
// work estimates the whole region's cost in multiply-adds (an element moved counts about 4): a
// region below minParallelWork runs on the caller, since handing half of a microsecond's work to
// another core costs about as much as it saves, and moves the data to that core's cache.
func (p *plan) parallel(n, unit, work int, f func(lo, hi int)) {
	t := p.threads
	if t <= 1 || n < 2*unit || work < minParallelWork {
		f(0, n)
		return
	}
	units := (n + unit - 1) / unit
	tasks := min(units, 4*t)
	chunk := (units + tasks - 1) / tasks * unit
	tasks = (n + chunk - 1) / chunk
	workpool.Run(t, tasks, func(i int) {
		f(i*chunk, min((i+1)*chunk, n))
	})
}

// minParallelWork is the smallest region (in multiply-adds) split across threads: ~1-2 us of work.
// (A variable so tests can split tiny regions too.)
var minParallelWork = 1 << 17

// constant returns a constant value's fp32 data, checked against its dims.
func constant(g *xnngraph.Graph, v *xnngraph.Value, named func(string) ([]byte, error)) ([]float32, error) {
	raw, err := g.ConstantBytes(v.ID, v.ConstantIdx, named)
	if err != nil {
		return nil, err
	}
	n := 1
	for _, d := range v.Dims {
		n *= int(d)
	}
	if len(raw) != 4*n {
		return nil, errorf("value %d: constant has %d bytes, its dims %v of fp32 are %d", v.ID, len(raw), v.Dims, 4*n)
	}
	if n == 0 {
		return nil, nil
	}
	if uintptr(unsafe.Pointer(&raw[0]))%4 != 0 {
		raw = slices.Clone(raw[:4*n])
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&raw[0])), n), nil
}

func (p *plan) val(id uint32) *tensor { return &p.vals[p.index[id]] }

// execute is run without a context (for tests that drive a plan directly).
func (p *plan) execute(args []*executor.EValue) error { return p.run(context.Background(), args, nil) }

// run binds the external values to the delegate call's arguments, runs every node and writes
// the outputs back. It stops between nodes once ctx is done; the plan stays usable (every
// buffer is held by one value or by the pool whichever node it stopped at, and the next call
// binds and computes every value afresh).
//
// When the call is traced (bctx.Profiling), every node's run is an event named as the official
// runtime's XNNPACK profiler names it (step.event).
func (p *plan) run(ctx context.Context, args []*executor.EValue, bctx *executor.BackendExecutionContext) error {
	traced := bctx.Profiling()
	ext := func(i int) (*executor.Tensor, error) { return p.external(i, args) }
	for _, i := range p.inputs {
		t, err := ext(i)
		if err != nil {
			return err
		}
		// The tensor's shape, whatever rank the graph declares: as XNNPACK reshapes its
		// external inputs from the tensors it is given.
		p.vals[i].dims = p.inputDims(i, t)
		if p.quant[i] != nil {
			p.vals[i].q = executor.Data[int8](t) // qint8 codes, read in place as fp32 values are
			continue
		}
		if p.f16[i] {
			p.bindF16Input(i, t)
			continue
		}
		if p.bf16[i] {
			p.bindBF16Input(i, t)
			continue
		}
		p.vals[i].data = executor.Data[float32](t)
	}
	if err := p.bindOutputs(ext); err != nil {
		return err
	}
	done := ctx.Done()
	for k := range p.steps {
		select {
		case <-done:
			return fmt.Errorf("stopped before node %d (%s) of %d: %w", p.order[k], p.steps[k].node.OpName(), len(p.g.Nodes), ctx.Err())
		default:
		}
		s := &p.steps[k]
		p.step = k
		var t0 time.Time
		if traced {
			t0 = time.Now()
		}
		if err := s.run(p, s.node); err != nil {
			return fmt.Errorf("node %d (%s): %w", p.order[k], s.node.OpName(), err)
		}
		if !s.ownRange {
			clampOutput(p, s.node)
		}
		if p.hasF16 {
			p.roundF16Outputs(s.node)
		}
		if p.hasBF16 {
			p.roundBF16Outputs(s.node) // (node_bf16.go)
		}
		if traced {
			bctx.ProfileDelegate(s.event, -1, nil, t0, time.Now())
		}
		p.release(k)
	}
	for _, i := range p.outputs {
		t, err := ext(i)
		if err != nil {
			return err
		}
		v := &p.vals[i]
		if !(t.Dim() == 0 && v.numel() == 1) { // a rank-0 output is [1] in the graph
			if err := t.Resize(v.dims); err != nil {
				return fmt.Errorf("delegate output %d: %w", p.g.Values[i].ExternalID, err)
			}
		}
		if p.quant[i] != nil {
			copy(executor.Data[int8](t), v.q[:v.numel()])
			continue
		}
		if p.f16[i] {
			p.storeF16Output(i, t)
			continue
		}
		if p.bf16[i] {
			p.storeBF16Output(i, t)
			continue
		}
		d := executor.Data[float32](t)
		if p.outBound[i] && len(d) > 0 && len(v.data) > 0 && &d[0] == &v.data[0] {
			continue // written in place
		}
		copy(d, v.data[:v.numel()])
	}
	return nil
}

// bindOutputs makes each fp32 output value's storage the caller's output tensor when that
// holds exactly the graph's static size for it (as XNNPACK writes external outputs where the
// runtime points it): the producing node writes there and the copy-out is skipped. A value
// bound on the last call but not on this one drops the caller's memory first (it must never
// be written after the call, nor reach the pool: outputs are never released, nor moved).
func (p *plan) bindOutputs(ext func(int) (*executor.Tensor, error)) error {
	if p.outBound == nil {
		p.outBound = make([]bool, len(p.vals))
	}
	for _, i := range p.outputs {
		v := &p.vals[i]
		if p.outBound[i] {
			v.data, p.outBound[i] = nil, false
		}
		gv := &p.g.Values[i]
		if p.quant[i] != nil || p.f16[i] || p.bf16[i] || gv.IsInput() {
			continue
		}
		t, err := ext(i)
		if err != nil {
			return err
		}
		d := executor.Data[float32](t)
		if len(d) == 0 || t.Dim() != len(gv.Dims) || len(d) != xnngraph.Numel(xnngraph.DimsOf(gv.Dims)) {
			continue
		}
		v.data, p.outBound[i] = d[:len(d):len(d)], true
	}
	return nil
}

// out sizes a node's fp32 output value for dims, reusing its memory when large enough.
//
// dims is copied into the value's own dims (so callers' literals stay on the stack and an
// Execute does not allocate a dims slice per node).
func (p *plan) out(id uint32, dims []int) *tensor {
	t, _ := outOf[float32](p, id, dims)
	return t
}

// outOf is out for a value stored as T (fp32 values or qint8 codes), also returning its
// elements.
func outOf[T elem](p *plan, id uint32, dims []int) (*tensor, []T) {
	t := p.val(id)
	t.dims = append(t.dims[:0], dims...)
	n := t.numel()
	d := storage[T](t)
	if cap(*d) < n {
		*d = take(poolOf[T](p), n)
	}
	*d = (*d)[:n]
	return t, *d
}

// take returns a pooled buffer that holds n values, or a new one. It prefers the most recently
// released buffer of about the right size (at most twice n, plus a page): a value is released
// right after the node that last read it, so that buffer was just in use and is still in cache,
// and the node writing into it does not pay for fetching cold lines before overwriting them (as
// XNNPACK's arena, whose planner packs values with adjacent lifetimes into the same memory).
// Per-node ETDump times of mobilenet_v2 against the official runtime's: depthwise layers 1.78x ->
// 1.20x, the whole graph 1.16x -> 1.03x. Failing that, the smallest buffer that fits. The choice
// depends only on the plan's sequence of sizes, so from the second run on, every run takes the
// same buffers and allocates nothing.
func take[T elem](pool *[][]T, n int) []T {
	best := -1
	for i := len(*pool) - 1; i >= 0; i-- {
		if c := cap((*pool)[i]); c >= n && c <= 2*n+1024 {
			best = i
			break
		}
	}
	if best < 0 {
		for i, b := range *pool {
			if cap(b) >= n && (best < 0 || cap(b) < cap((*pool)[best])) {
				best = i
			}
		}
	}
	if best < 0 {
		return make([]T, n)
	}
	b := (*pool)[best]
	// Keep the rest in release order (the most recent last).
	*pool = append((*pool)[:best], (*pool)[best+1:]...)
	return b
}

// elem is what a value's storage holds: fp32 values or qint8 codes. The kernels that only move
// elements (the layout operations, copy, max pooling) are written once for both.
type elem interface{ float32 | int8 }

// storage is t's buffer for elements of type T: data for fp32, q for qint8 codes.
func storage[T elem](t *tensor) *[]T {
	if d, ok := any(&t.data).(*[]T); ok {
		return d
	}
	return any(&t.q).(*[]T)
}

// poolOf is the plan's pool of free buffers of type T.
func poolOf[T elem](p *plan) *[][]T {
	if d, ok := any(&p.pool).(*[][]T); ok {
		return d
	}
	return any(&p.qpool).(*[][]T)
}

// clampOutput applies a node's fused output range.
func clampOutput(p *plan, n *xnngraph.Node) {
	lo, hi := n.OutputMin, n.OutputMax
	if (math.IsInf(float64(lo), -1) && math.IsInf(float64(hi), 1)) || len(n.Outputs) == 0 {
		return // no range, or a node fused into its producer
	}
	gemm.Clamp(p.val(n.Outputs[0]).data, lo, hi)
}
