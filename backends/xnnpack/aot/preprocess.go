package aot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/etgo/etgo/backends/transforms"
	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// Processed is one region compiled for XnnpackBackend: the blob the delegate call carries and
// the weights it reads from the program's named data.
type Processed struct {
	Blob []byte
	// NamedData holds one entry per distinct weight, keyed by the SHA-256 of its bytes (so equal
	// weights in different regions share one entry), aligned to 16 bytes.
	NamedData []pte.NamedBlob
	// Passes says what each of the rewrites before the visitors did, in their order.
	Passes []passes.Report
}

// defaultDebugHandle marks nodes the preprocess inserts (layout conversions), as ExecuTorch's
// DEFAULT_DEBUG_HANDLE does.
const defaultDebugHandle = 65535

// Preprocess compiles a region (partition.Delegate.Program) into an XNNPACK blob, as
// XnnpackBackend.preprocess does: the XNNPACK passes (xnnpackPasses: clone removal, batch-norm
// fusion, or decomposition into a depthwise convolution, activation fusion, concatenation
// splitting, values-only max pools and max.dim, conv1d as conv2d, channels-last tagging with
// layout conversions only where the layout changes), then one XNNPACK node per operator, with
// weights pre-transformed and stored as named data. prog is rewritten in place.
//
// External values follow the region's signature: user inputs get ids 0..k-1 in order, then the
// outputs in order; the delegate call's arguments are laid out the same way.
func Preprocess(prog *ir.Graph) (_ *Processed, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("xnnpack: preprocess: internal error: %v", r)
		}
	}()
	for _, in := range prog.Inputs {
		if in.Kind == ir.UserInput || in.Value == nil {
			continue
		}
		if _, ok := prog.Constants[in.Target]; !ok {
			return nil, fmt.Errorf("xnnpack: preprocess: constant %s (%s) has no data", in.Value.Name, in.Target)
		}
	}
	// The handles number the region's nodes before any rewrite changes them; the nodes a
	// rewrite puts in place of one carry its handle.
	for i, n := range prog.Nodes {
		n.DebugHandle = uint32(i + 1)
	}
	implicit := implicitQDQ(prog)
	before := map[*ir.Node]bool{}
	for _, n := range prog.Nodes {
		before[n] = true
	}
	fused, nhwc := fusedActivations{}, layouts{}
	reports, err := passes.NewManager(xnnpackPasses(fused, nhwc)...).Run(prog)
	if err != nil {
		return nil, fmt.Errorf("xnnpack: preprocess: %w", err)
	}
	p := &preprocessor{
		g:        prog,
		params:   transforms.ParamsOf(prog),
		nhwc:     nhwc,
		fused:    fused,
		ids:      map[*ir.Value]uint32{},
		ext:      map[*ir.Value]external{},
		named:    map[string]bool{},
		out:      &xnngraph.Graph{Version: "0", Constants: []xnngraph.ConstantRef{{HasKey: true}}, HasHeader: true},
		implicit: implicit,
		inserted: map[*ir.Node]bool{},
	}
	for _, n := range prog.Nodes {
		if !before[n] && isLayoutConversion(n) {
			p.inserted[n] = true
		}
	}
	p.convertBeforeDequantize()
	p.users = prog.Users()
	for _, step := range []struct {
		name string
		run  func() error
	}{
		{"external ids", p.externals},
		{"define nodes", p.defineNodes},
	} {
		if err := step.run(); err != nil {
			return nil, fmt.Errorf("xnnpack: preprocess: %s: %w", step.name, err)
		}
	}
	p.out.NumExterns = uint32(len(p.ext))
	blob, err := p.out.Encode()
	if err != nil {
		return nil, err
	}
	return &Processed{Blob: blob, NamedData: p.blobs, Passes: reports}, nil
}

type external struct{ id, flag uint32 }

// preprocessor is the visitors' state: the rewritten graph with what the rewrites recorded of
// it, and the XNNPACK graph being written.
type preprocessor struct {
	g      *ir.Graph
	params *transforms.Params     // parameters, buffers and constants, with their data
	nhwc   layouts                // by channelsLastTaggedReshape
	fused  fusedActivations       // by fuseActivation
	ids    map[*ir.Value]uint32   // XNNPACK value ids
	ext    map[*ir.Value]external // external inputs and outputs
	named  map[string]bool        // named-data keys already stored
	blobs  []pte.NamedBlob
	out    *xnngraph.Graph
	// implicit are the q/dq nodes a quantized operator took (preprocess_quant.go); inserted
	// are the layout conversions the channels-last pass added, which keep their input's
	// quantization.
	implicit map[*ir.Node]bool
	inserted map[*ir.Node]bool
	users    map[*ir.Value][]*ir.Node
}

func (p *preprocessor) isParam(v *ir.Value) bool { return p.params.Is(v) }

// dimsOf returns a tensor value's sizes as XNNPACK values carry them: a symbolic dimension at
// its upper bound (the runtime reshapes to the actual sizes at execute), a rank-0 tensor as [1].
func (p *preprocessor) dimsOf(v *ir.Value) ([]uint32, error) {
	if v.Meta == nil {
		return nil, fmt.Errorf("value %s has no tensor metadata", v.Name)
	}
	if len(v.Meta.Sizes) == 0 {
		return []uint32{1}, nil
	}
	d := make([]uint32, len(v.Meta.Sizes))
	for i, s := range v.Meta.Sizes {
		size := s.Size
		if !s.IsStatic() {
			if r, ok := p.g.Ranges[s.Symbol]; ok && r.Max > 0 {
				size = r.Max
			}
		}
		if size < 0 || size > math.MaxUint32 {
			return nil, fmt.Errorf("value %s: dim %d is %d", v.Name, i, size)
		}
		d[i] = uint32(size)
	}
	return d, nil
}

// storeConstant records weight bytes as named data under their SHA-256 and returns the
// constant_data index that refers to them.
func (p *preprocessor) storeConstant(data []byte) uint32 { return p.storeNamed("", data) }

// storeNamed stores data under prefix + its SHA-256 ("scale_…" for quantization scales).
func (p *preprocessor) storeNamed(prefix string, data []byte) uint32 {
	sum := sha256.Sum256(data)
	key := prefix + hex.EncodeToString(sum[:])
	idx := uint32(len(p.out.Constants))
	p.out.Constants = append(p.out.Constants, xnngraph.ConstantRef{Offset: math.MaxUint64, Size: uint64(len(data)), NamedKey: key, HasKey: true})
	if !p.named[key] {
		p.named[key] = true
		p.blobs = append(p.blobs, pte.NamedBlob{Key: key, Data: data, Alignment: xnngraph.ConstantAlignment})
	}
	return idx
}

// tensorOpts are define_tensor's options.
type tensorOpts struct {
	nhwc   bool // write the dims (and a constant's data) channels-last
	swapIO bool // a depthwise or transposed convolution's weight: swap its first two axes
	groups int
	// fp32 is node_visitor's force_fp32: a float16 or bfloat16 constant is widened to float32
	// and declared fp32 (convolution filters and biases, a bf16 linear's bias). Without it a
	// half-precision constant keeps its dtype and its bytes.
	fp32 bool
	// quant, when quantSet, are the value's quantization parameters as the visitor states them
	// (nil: not quantized); otherwise define infers them (quantOf).
	quant    *qparams
	quantSet bool
}

// define adds v to the XNNPACK graph once, with its external id, dims in the layout its tag or
// the visitor asks for, and, for a constant, its transformed data.
func (p *preprocessor) define(v *ir.Value, o tensorOpts) error {
	if _, ok := p.ids[v]; ok {
		return nil
	}
	if v.Kind != ir.TensorValue {
		return fmt.Errorf("value %s is not a tensor", v.Name)
	}
	q := o.quant
	if !o.quantSet {
		var err error
		if q, err = p.quantOf(v); err != nil {
			return err
		}
	}
	if q != nil && q.qInput != nil {
		if id, ok := p.ids[q.qInput]; ok {
			p.ids[v] = id
			return nil
		}
	}
	o.nhwc = o.nhwc || p.nhwc[v]
	dims, err := p.dimsOf(v)
	if err != nil {
		return err
	}
	groups := o.groups
	if groups < 1 {
		groups = 1
	}
	if o.swapIO {
		if len(dims) < 2 || dims[0]%uint32(groups) != 0 {
			return fmt.Errorf("cannot swap the channel axes of %s %v with %d groups", v.Name, dims, groups)
		}
		dims = append([]uint32{dims[1] * uint32(groups), dims[0] / uint32(groups)}, dims[2:]...)
	}
	if o.nhwc {
		if len(dims) != 4 {
			return fmt.Errorf("value %s %v: channels-last needs 4 dims", v.Name, dims)
		}
		dims = []uint32{dims[0], dims[2], dims[3], dims[1]}
	}
	dtype := schema.XNNDatatypexnn_datatype_fp32
	switch v.Meta.DType {
	case ir.Float16:
		dtype = schema.XNNDatatypexnn_datatype_fp16
	case ir.BFloat16:
		dtype = schema.XNNDatatypexnn_datatype_bf16
	}
	val := xnngraph.Value{ID: uint32(len(p.out.Values)), DType: dtype, Dims: dims, ExternalID: xnngraph.InvalidID}
	if q != nil {
		return p.defineQuant(v, val, q, o)
	}
	if c := p.params.Data(v); c != nil {
		half := !o.fp32 && (c.Meta.DType == ir.Float16 || c.Meta.DType == ir.BFloat16)
		var data []byte
		if half {
			data, err = p.halfWeightBytes(v, c, o)
		} else {
			data, err = p.weightBytes(v, c, o)
			val.DType = schema.XNNDatatypexnn_datatype_fp32
		}
		if err != nil {
			return err
		}
		val.ConstantIdx = p.storeConstant(data)
	} else if o.swapIO {
		return fmt.Errorf("value %s: swapping channel axes is only valid for constant weights", v.Name)
	}
	if e, ok := p.ext[v]; ok {
		val.ExternalID, val.Flags = e.id, e.flag
	}
	p.ids[v] = val.ID
	p.out.Values = append(p.out.Values, val)
	return nil
}

// defineQuant finishes define for a quantized value: its data (a quantized weight read through
// its dq, a bias quantized to int32), parameters and external role; the value q/dq reads
// shares it.
func (p *preprocessor) defineQuant(v *ir.Value, val xnngraph.Value, q *qparams, o tensorOpts) error {
	src := v
	if p.params.Data(src) == nil && q.qInput != nil && p.params.Data(q.qInput) != nil {
		src = q.qInput
	}
	if c := p.params.Data(src); c != nil {
		data, err := quantizeConstant(c, src.Name, q)
		if err != nil {
			return err
		}
		shape := make([]int, len(c.Meta.Sizes))
		for i, d := range c.Meta.Sizes {
			shape[i] = int(d.Size)
		}
		es := 1
		if q.dtype == ir.Int32 {
			es = 4
		}
		po := o
		if q.qc4w {
			// convert_to_qc4w squeezes the weight and packs it in its logical order: a
			// channels-last permutation, a memory format only, leaves that order alone.
			po.nhwc = false
		}
		if data, err = permuteBytes(data, es, shape, po); err != nil {
			return fmt.Errorf("constant %s: %w", src.Name, err)
		}
		if q.qc4w {
			if data, err = packQC4W(data, qc4wShape(shape, o)); err != nil {
				return fmt.Errorf("constant %s: %w", src.Name, err)
			}
		}
		val.ConstantIdx = p.storeConstant(data)
	} else if o.swapIO {
		return fmt.Errorf("value %s: swapping channel axes is only valid for constant weights", v.Name)
	}
	p.quantValue(&val, q, o.swapIO)
	e, ok := p.ext[v]
	if !ok && q.qInput != nil {
		e, ok = p.ext[q.qInput]
	}
	if !ok {
		if users := p.users[v]; len(users) == 1 && configs.IsQuantize(users[0]) && p.implicit[users[0]] {
			e, ok = p.ext[users[0].FirstOutput()]
		}
	}
	if ok {
		val.ExternalID, val.Flags = e.id, e.flag
	}
	p.ids[v] = val.ID
	if q.qInput != nil {
		if _, done := p.ids[q.qInput]; !done {
			p.ids[q.qInput] = val.ID
		}
	}
	p.out.Values = append(p.out.Values, val)
	return nil
}

// weightBytes lays a constant out as XNNPACK reads it: float32, channel axes swapped for
// depthwise and transposed convolutions, channels-last when asked.
func (p *preprocessor) weightBytes(v *ir.Value, c *ir.Constant, o tensorOpts) ([]byte, error) {
	if c.Meta.DType == ir.Float32 && !o.swapIO && !o.nhwc {
		// Already XNNPACK's layout: the bytes as they are (a ViT-B/16 has 330 MB of them;
		// decoding and re-encoding every float cost a second and two copies).
		n := 1
		for _, d := range c.Meta.Sizes {
			n *= int(d.Size)
		}
		switch {
		case n == 0 || len(c.Data) == 0:
			return nil, fmt.Errorf("constant %s has no bytes", v.Name)
		case len(c.Data) != 4*n:
			return nil, fmt.Errorf("constant %s: %d bytes for %d float32 elements", v.Name, len(c.Data), n)
		}
		return c.Data, nil
	}
	f, err := transforms.Float32Data(c, v.Name)
	if err != nil {
		return nil, err
	}
	if len(f) == 0 {
		return nil, fmt.Errorf("constant %s has no bytes", v.Name)
	}
	shape := make([]int, len(c.Meta.Sizes))
	for i, d := range c.Meta.Sizes {
		shape[i] = int(d.Size)
	}
	data, err := permuteBytes(transforms.Float32Bytes(f), 4, shape, o)
	if err != nil {
		return nil, fmt.Errorf("constant %s: %w", v.Name, err)
	}
	return data, nil
}

// halfWeightBytes lays a float16 or bfloat16 constant out as XNNPACK reads it, in its own
// dtype (get_serialized_buffer_index keeps half-precision data unless forced to fp32).
func (p *preprocessor) halfWeightBytes(v *ir.Value, c *ir.Constant, o tensorOpts) ([]byte, error) {
	n := 1
	shape := make([]int, len(c.Meta.Sizes))
	for i, d := range c.Meta.Sizes {
		shape[i] = int(d.Size)
		n *= shape[i]
	}
	switch {
	case n == 0 || len(c.Data) == 0:
		return nil, fmt.Errorf("constant %s has no bytes", v.Name)
	case len(c.Data) != 2*n:
		return nil, fmt.Errorf("constant %s: %d bytes for %d %s elements", v.Name, len(c.Data), n, c.Meta.DType)
	}
	if !o.swapIO && !o.nhwc {
		return c.Data, nil
	}
	data, err := permuteBytes(c.Data, 2, shape, o)
	if err != nil {
		return nil, fmt.Errorf("constant %s: %w", v.Name, err)
	}
	return data, nil
}

// externals numbers the region's inputs and outputs as generate_node_to_external_map does. A
// value that is both an input and an output cannot be expressed (XNNPACK has no pass-through).
func (p *preprocessor) externals() error {
	for _, in := range p.g.Inputs {
		if in.Kind == ir.UserInput && in.Value != nil {
			if _, dup := p.ext[in.Value]; !dup {
				p.ext[in.Value] = external{uint32(len(p.ext)), xnngraph.FlagExternalInput}
			}
		}
	}
	for _, o := range p.g.Outputs {
		if o.Value == nil {
			return fmt.Errorf("an output of the region is not a tensor")
		}
		if e, ok := p.ext[o.Value]; ok && e.flag == xnngraph.FlagExternalInput {
			return fmt.Errorf("output %s is also an input of the region: pass-through arguments are not supported by the XNNPACK delegate", o.Value.Name)
		}
		if p.isParam(o.Value) {
			return fmt.Errorf("output %s is a constant of the region", o.Value.Name)
		}
		if _, dup := p.ext[o.Value]; dup {
			return fmt.Errorf("output %s appears twice", o.Value.Name)
		}
		p.ext[o.Value] = external{uint32(len(p.ext)), xnngraph.FlagExternalOutput}
	}
	if len(p.ext) > xnngraph.MaxExterns {
		return fmt.Errorf("%d external values exceed XNNPACK's %d", len(p.ext), xnngraph.MaxExterns)
	}
	return nil
}

func (p *preprocessor) defineNodes() error {
	for _, n := range p.g.Nodes {
		if err := p.visit(n); err != nil {
			return fmt.Errorf("node %s (%s): %w", n.Name, n.Target, err)
		}
	}
	return nil
}

// PreprocessDelegate compiles one lowered region of a plan whose remaining graph is parent:
// the region's own program (partition.Delegate.Program), then Preprocess. Its signature is
// emit.PreprocessFunc's once parent is bound.
func PreprocessDelegate(parent *ir.Graph, d *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
	prog, err := d.Program(parent)
	if err != nil {
		return nil, nil, err
	}
	p, err := Preprocess(prog)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", d.Call.Name, err)
	}
	return p.Blob, p.NamedData, nil
}
