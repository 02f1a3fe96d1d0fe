package vkrt

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/backends/vulkan/vkgraph"
)

// opFunc lowers one operator call of the chain into dispatches, given its argument value ids.
type opFunc func(b *builder, args []int32) error

// ops is every operator this backend runs, by the name the VK00 chain gives it. Init refuses a
// blob naming any other.
var ops = map[string]opFunc{
	"aten.add.Tensor":        binaryOp(opAdd),
	"aten.sub.Tensor":        binaryOp(opSub),
	"aten.mul.Tensor":        binaryOp(opMul),
	"aten.div.Tensor":        binaryOp(opDiv),
	"aten.minimum.default":   binaryOp(opMinimum),
	"aten.maximum.default":   binaryOp(opMaximum),
	"aten.pow.Tensor_Tensor": binaryOp(opPow),

	"aten.relu.default":        unaryOp(uClamp, relu),
	"aten.clamp.default":       unaryOp(uClamp, clampBounds),
	"aten.hardtanh.default":    unaryOp(uClamp, clampBounds),
	"aten.hardswish.default":   unaryOp(uHardswish, nil),
	"aten.hardsigmoid.default": unaryOp(uHardsigmoid, nil),
	"aten.sigmoid.default":     unaryOp(uSigmoid, nil),
	"aten.tanh.default":        unaryOp(uTanh, nil),
	"aten.gelu.default":        geluOp,
	"aten.silu.default":        unaryOp(uSilu, nil),
	"aten.abs.default":         unaryOp(uAbs, nil),
	"aten.neg.default":         unaryOp(uNeg, nil),
	"aten.exp.default":         unaryOp(uExp, nil),
	"aten.sqrt.default":        unaryOp(uSqrt, nil),
	"aten.rsqrt.default":       unaryOp(uRsqrt, nil),

	"aten.linear.default": linearOp,
	"aten.mm.default":     mmOp,
	"aten.bmm.default":    bmmOp,
	"aten.addmm.default":  addmmOp,

	"aten.convolution.default":      convOp,
	"et_vk.conv_with_clamp.default": convOp,
	"conv_with_clamp.default":       convOp,

	"aten.max_pool2d_with_indices.default": maxPoolOp,
	"aten.max_pool2d.default":              maxPoolOp,
	"aten.avg_pool2d.default":              avgPoolOp,

	"aten.mean.dim":             reduceOp(1),
	"aten.sum.dim_IntList":      reduceOp(0),
	"aten._softmax.default":     softmaxOp(false),
	"aten._log_softmax.default": softmaxOp(true),

	"aten.view_copy.default":                   viewOp,
	"aten.clone.default":                       aliasOp,
	"et_vk.prepack.default":                    aliasOp,
	"dim_order_ops._to_dim_order_copy.default": toDimOrderOp,
	"aten.squeeze_copy.dims":                   squeezeOp,
	"aten.unsqueeze_copy.default":              unsqueezeOp,
	"aten.permute_copy.default":                permuteOp,
	"aten.slice_copy.Tensor":                   sliceOp,
	"aten.cat.default":                         catOp,
	"aten.split_with_sizes_copy.default":       splitOp,

	"aten.eq.Tensor": compareOp(ibEq),
	"aten.lt.Tensor": compareOp(ibLt),
	"aten.le.Tensor": compareOp(ibLe),
	"aten.gt.Tensor": compareOp(ibGt),
	"aten.ge.Tensor": compareOp(ibGe),
	"aten.eq.Scalar": compareOp(ibEq),
	"aten.ne.Scalar": compareOp(ibNe),
	"aten.lt.Scalar": compareOp(ibLt),
	"aten.le.Scalar": compareOp(ibLe),
	"aten.gt.Scalar": compareOp(ibGt),
	"aten.ge.Scalar": compareOp(ibGe),

	"aten.logical_and.default": logicalOp(ibLogicalAnd),
	"aten.logical_or.default":  logicalOp(ibLogicalOr),
	"aten.logical_not.default": logicalNotOp,
	"aten.bitwise_and.Tensor":  bitwiseOp(ibAnd),
	"aten.bitwise_or.Tensor":   bitwiseOp(ibOr),
	"aten.bitwise_not.default": bitwiseNotOp,

	"aten.where.self": whereOp,

	"aten.full.default":       fullOp(false, 0, true),
	"aten.full_like.default":  fullOp(true, 0, true),
	"aten.ones.default":       fullOp(false, 1, false),
	"aten.ones_like.default":  fullOp(true, 1, false),
	"aten.zeros.default":      fullOp(false, 0, false),
	"aten.zeros_like.default": fullOp(true, 0, false),
	"aten.arange.start_step":  arangeOp,

	"aten.argmax.default": argReduceOp(false),
	"aten.argmin.default": argReduceOp(true),

	"aten._native_batch_norm_legit_no_training.default": batchNormOp,
	"aten.native_layer_norm.default":                    layerNormOp,
}

// Supported lists the operators this backend runs, sorted (for documentation and errors).
func Supported() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// unsupported names the chain's operators this backend does not run, with where they are.
func unsupported(g *vkgraph.Graph) error {
	at := map[string][]int{}
	var names []string
	for i, c := range g.Chain {
		if ops[c.Name] != nil {
			continue
		}
		if at[c.Name] == nil {
			names = append(names, c.Name)
		}
		at[c.Name] = append(at[c.Name], i)
	}
	if len(names) == 0 {
		return nil
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (chain %v)", n, at[n])
	}
	return fmt.Errorf("%w: etgo's Vulkan backend does not run %s", ErrUnsupported, strings.Join(parts, ", "))
}

// builder lowers a graph for one set of input shapes. Every tensor value gets its own region
// of 32-bit elements in the program's buffer, laid out contiguously in its logical dim order
// (not the official runtime's textures and packed layouts: see doc.go); view-like operators
// share their input's region.
type builder struct {
	g      *vkgraph.Graph
	consts [][]byte // resolved constant bytes, by constant id
	prog   program
	region []int   // value id -> region, -1 while unwritten
	shape  [][]int // value id -> shape, for values with a region
	// op and opIndex say where an error arose.
	op      string
	opIndex int
}

func build(g *vkgraph.Graph, consts [][]byte, inputShapes [][]int) (*builder, error) {
	b := &builder{g: g, consts: consts, region: make([]int, len(g.Values)), shape: make([][]int, len(g.Values))}
	for i := range b.region {
		b.region[i] = -1
	}
	for k, id := range g.InputIDs {
		if b.region[id] >= 0 {
			continue // the same value twice among the inputs
		}
		if err := b.output(int32(id), inputShapes[k]); err != nil {
			return nil, fmt.Errorf("input %d: %w", k, err)
		}
	}
	for i, c := range g.Chain {
		b.op, b.opIndex = c.Name, i
		if err := b.checkDTypes(c.Args); err != nil {
			return nil, fmt.Errorf("chain[%d] %s: %w", i, c.Name, err)
		}
		if err := ops[c.Name](b, c.Args); err != nil {
			return nil, fmt.Errorf("chain[%d] %s: %w", i, c.Name, err)
		}
	}
	b.op = ""
	for k, id := range g.OutputIDs {
		if _, err := b.tensor(int32(id)); err != nil {
			return nil, fmt.Errorf("output %d: %w", k, err)
		}
	}
	return b, nil
}

func (b *builder) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidBlob, fmt.Sprintf(format, args...))
}

func (b *builder) value(id int32) *vkgraph.Value {
	if id < 0 || int(id) >= len(b.g.Values) {
		return nil // Validate has checked every argument; kept so a bad id cannot panic
	}
	return &b.g.Values[id]
}

func (b *builder) arg(args []int32, i int) (int32, error) {
	if i >= len(args) {
		return 0, b.errorf("%s takes at least %d arguments, the chain gives %d", b.op, i+1, len(args))
	}
	return args[i], nil
}

func (b *builder) tensorValue(id int32) (*vkgraph.Tensor, error) {
	v := b.value(id)
	if v == nil || v.Kind != schema.GraphTypesVkTensor {
		return nil, b.errorf("value %d is not a tensor", id)
	}
	return v.Tensor, nil
}

// tensor returns the region of tensor value id, placing a constant on first use.
func (b *builder) tensor(id int32) (int, error) {
	t, err := b.tensorValue(id)
	if err != nil {
		return 0, err
	}
	if r := b.region[id]; r >= 0 {
		return r, nil
	}
	if t.ConstantID < 0 {
		return 0, b.errorf("tensor value %d is read before any operator writes it", id)
	}
	dims := dimsOf(t.Dims)
	if err := elemType(t.DType); err != nil {
		return 0, fmt.Errorf("constant value %d: %w", id, err)
	}
	n := numel(dims)
	data := b.consts[t.ConstantID]
	if len(data) < elemSize(t.DType)*n {
		return 0, b.errorf("constant value %d of dims %v has %d bytes", id, dims, len(data))
	}
	r, err := b.prog.alloc(4*n, toWords(t.DType, data[:elemSize(t.DType)*n]))
	if err != nil {
		return 0, err
	}
	b.region[id], b.shape[id] = r, dims
	return r, nil
}

// in returns the region and shape of tensor argument i.
func (b *builder) in(args []int32, i int) (int, []int, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, nil, err
	}
	r, err := b.tensor(id)
	if err != nil {
		return 0, nil, err
	}
	return r, b.shape[id], nil
}

// output places tensor value id with shape dims. The shape follows from the inputs (so a
// dynamic input runs at its own size); the blob's dims bound it, as the official runtime's
// allocations do.
func (b *builder) output(id int32, dims []int) error {
	t, err := b.tensorValue(id)
	if err != nil {
		return err
	}
	if b.region[id] >= 0 {
		return b.errorf("tensor value %d is written twice", id)
	}
	if err := elemType(t.DType); err != nil {
		return fmt.Errorf("value %d: %w", id, err)
	}
	if len(dims) > vkgraph.MaxDims {
		return b.errorf("value %d: %d dims", id, len(dims))
	}
	n := 1
	for _, d := range dims {
		if d < 0 || (d > 0 && n > math.MaxInt32/d) {
			return fmt.Errorf("%w: value %d of dims %v is too large", ErrUnsupported, id, dims)
		}
		n *= d
	}
	if decl := numel(dimsOf(t.Dims)); n > decl {
		return b.errorf("value %d: shape %v holds %d elements, more than its declared dims %v", id, dims, n, t.Dims)
	}
	r, err := b.prog.alloc(4*n, nil)
	if err != nil {
		return err
	}
	b.region[id], b.shape[id] = r, slices.Clone(dims)
	return nil
}

// out places output argument i with shape dims and returns its region.
func (b *builder) out(args []int32, i int, dims []int) (int, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, err
	}
	if err := b.output(id, dims); err != nil {
		return 0, err
	}
	return b.region[id], nil
}

// alias makes output argument i share input region r, with shape dims.
func (b *builder) alias(args []int32, i int, r int, dims []int) error {
	id, err := b.arg(args, i)
	if err != nil {
		return err
	}
	t, err := b.tensorValue(id)
	if err != nil {
		return err
	}
	if b.region[id] >= 0 {
		return b.errorf("tensor value %d is written twice", id)
	}
	if numel(dims) > numel(dimsOf(t.Dims)) {
		return b.errorf("value %d: shape %v is larger than its declared dims %v", id, dims, t.Dims)
	}
	b.region[id], b.shape[id] = r, slices.Clone(dims)
	return nil
}

// dummy is a region for a binding the shader does not read (an absent bias).
func (b *builder) dummy() (int, error) { return b.prog.alloc(4, nil) }

func (b *builder) intArg(args []int32, i int) (int64, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, err
	}
	v := b.value(id)
	switch v.Kind {
	case schema.GraphTypesInt:
		return v.Int, nil
	case schema.GraphTypesDouble:
		if v.Double == math.Trunc(v.Double) && math.Abs(v.Double) < 1<<53 {
			return int64(v.Double), nil
		}
	}
	return 0, b.errorf("argument %d (value %d) of %s is a %s, not an int", i, id, b.op, v.Kind)
}

// scalarArg reads a number argument; ok is false for None.
func (b *builder) scalarArg(args []int32, i int) (v float64, ok bool, err error) {
	id, err := b.arg(args, i)
	if err != nil {
		return 0, false, err
	}
	val := b.value(id)
	switch val.Kind {
	case schema.GraphTypesNull:
		return 0, false, nil
	case schema.GraphTypesInt:
		return float64(val.Int), true, nil
	case schema.GraphTypesDouble:
		return val.Double, true, nil
	case schema.GraphTypesBool:
		if val.Bool {
			return 1, true, nil
		}
		return 0, true, nil
	}
	return 0, false, b.errorf("argument %d (value %d) of %s is a %s, not a number", i, id, b.op, val.Kind)
}

func (b *builder) boolArg(args []int32, i int) (bool, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return false, err
	}
	v := b.value(id)
	switch v.Kind {
	case schema.GraphTypesBool:
		return v.Bool, nil
	case schema.GraphTypesNull:
		return false, nil
	}
	return false, b.errorf("argument %d (value %d) of %s is a %s, not a bool", i, id, b.op, v.Kind)
}

// intListArg reads an int list (nil for None).
func (b *builder) intListArg(args []int32, i int) ([]int64, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return nil, err
	}
	v := b.value(id)
	switch v.Kind {
	case schema.GraphTypesIntList:
		return v.IntList, nil
	case schema.GraphTypesNull:
		return nil, nil
	case schema.GraphTypesInt:
		return []int64{v.Int}, nil
	case schema.GraphTypesValueList:
		out := make([]int64, len(v.ValueList))
		for j, item := range v.ValueList {
			e := b.value(item)
			if e == nil || e.Kind != schema.GraphTypesInt {
				return nil, fmt.Errorf("%w: argument %d of %s: item %d is not a constant int (symbolic sizes are not run)", ErrUnsupported, i, b.op, j)
			}
			out[j] = e.Int
		}
		return out, nil
	}
	return nil, b.errorf("argument %d (value %d) of %s is a %s, not an int list", i, id, b.op, v.Kind)
}

func (b *builder) valueListArg(args []int32, i int) ([]int32, error) {
	id, err := b.arg(args, i)
	if err != nil {
		return nil, err
	}
	v := b.value(id)
	if v.Kind != schema.GraphTypesValueList {
		return nil, b.errorf("argument %d (value %d) of %s is a %s, not a value list", i, id, b.op, v.Kind)
	}
	return v.ValueList, nil
}

func (b *builder) isNull(args []int32, i int) bool {
	if i >= len(args) {
		return true
	}
	v := b.value(args[i])
	return v == nil || v.Kind == schema.GraphTypesNull
}

// elemType refuses the datatypes etgo's layout does not hold. Every element is one 32-bit
// word: float32 as its bits, int32 as itself, and BOOL as 0 or 1 (the official runtime keeps
// bool as 8-bit integers in buffers and as 8-bit integer textures; etgo widens it in the
// staging copies, stage.go, so every shader indexes words).
func elemType(d schema.VkDataType) error {
	switch d {
	case schema.VkDataTypeFLOAT32, schema.VkDataTypeINT32, schema.VkDataTypeBOOL:
		return nil
	}
	return fmt.Errorf("%w: tensors of datatype %s (etgo's Vulkan backend runs float32, int32 and bool)", ErrUnsupported, d)
}

func dimsOf(d []uint32) []int {
	out := make([]int, len(d))
	for i, v := range d {
		out[i] = int(v)
	}
	return out
}

func numel(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// contiguousStrides are the row-major strides of dims, in elements.
func contiguousStrides(dims []int) []int {
	s := make([]int, len(dims))
	acc := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= dims[i]
	}
	return s
}

// normDim turns a possibly negative dim into an index below rank.
func (b *builder) normDim(d int64, rank int) (int, error) {
	if d < 0 {
		d += int64(rank)
	}
	if d < 0 || d >= int64(max(rank, 1)) {
		return 0, b.errorf("%s: dim %d of a rank-%d tensor", b.op, d, rank)
	}
	return int(d), nil
}

// u32s packs ints as shader parameters.
func u32s(vs ...int) []uint32 {
	out := make([]uint32, len(vs))
	for i, v := range vs {
		out[i] = uint32(v)
	}
	return out
}

// padTo8 appends vs to params, padded with zeros to 8 words (the shaders' dim arrays).
func padTo8(params []uint32, vs []int) []uint32 {
	for i := 0; i < 8; i++ {
		w := 0
		if i < len(vs) {
			w = vs[i]
		}
		params = append(params, uint32(w))
	}
	return params
}
