package xnnpack

import (
	"fmt"
	"strings"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/gemm"
)

// Every node type the run time executes is registered once, from the init function of its
// operator family's file (node_elementwise.go, node_gemm.go, node_conv.go, node_pool.go,
// node_shape.go), with everything the plan needs to know about it: its fp32 kernel, its
// quantized form, whether it applies its own output range, what may be fused into it and how its
// constant filter is packed. The plan (backend.go) looks types up here instead of listing them.
// Layout is the graph's: convolution and pooling values are NHWC, filters OHWI ([out, kh, kw,
// in/groups]), depthwise filters [1, kh, kw, channels].

// runFunc executes one node of a plan.
type runFunc func(p *plan, n *xnngraph.Node) error

// nodeKernel is what the run time knows about one node type.
type nodeKernel struct {
	// run executes the node on fp32 values (nil: an fp32 node of the type is refused at init).
	run runFunc
	// ownRange: run applies the node's output range itself, fused into its store; for every
	// other type the plan clamps the output after the node runs.
	ownRange bool
	// pack, when set, packs a constant filter w once at init for the node's kernel (the fp32
	// prepare step), or returns nil when w's size does not fit the node (the kernel then
	// packs, or refuses, when it runs).
	pack func(n *xnngraph.Node, w *tensor) []*gemm.PackedB
	// quant, when set, prepares the node's statically quantized form: it checks the
	// operands' datatypes and quantization, computes what the kernel needs (combined scales,
	// the output range in codes) and returns the kernel. Without it a node with any quantized
	// operand is refused at init.
	quant func(p *plan, k int, n *xnngraph.Node) (runFunc, error)
	// takesActivation: run applies p.act(n) to each output chunk it writes, so the plan may
	// fold an activation that reads only this node's output into it (fuseActivations).
	takesActivation bool
	// activation, for an elementwise activation, is its in-place slice form, which a producer
	// that takesActivation applies in its stead.
	activation func([]float32)
	// operator is the name XNNPACK's profiler gives the operator the node becomes, as the
	// official runtime writes it in an ETDump ("Multiply (ND)"); operatorOf, when set, names
	// it from the node instead (a 1×1 convolution runs as a GEMM). Empty: the schema's name
	// without its "XNN" prefix.
	operator   string
	operatorOf func(n *xnngraph.Node) string
}

// operatorName is the profiling name of node n: XNNPACK's operator name, with the F32 of an
// fp32 operator read QS8 when the node runs quantized.
func operatorName(n *xnngraph.Node, quantized bool) string {
	name := strings.TrimPrefix(n.OpName(), "XNN")
	if k := kernelOf(n.Op); k != nil {
		switch {
		case k.operatorOf != nil:
			name = k.operatorOf(n)
		case k.operator != "":
			name = k.operator
		}
	}
	if quantized {
		name = strings.Replace(name, "F32", "QS8", 1)
	}
	return name
}

// nodeKernels is indexed by tag (XNodeUnion is a byte).
var nodeKernels [256]*nodeKernel

// registerNode adds the run time's kernel for a node type. It runs from init functions only, so
// a second registration is a programming error, reported as one.
func registerNode(op schema.XNodeUnion, k nodeKernel) {
	if op == schema.XNodeUnionNONE || nodeKernels[op] != nil {
		panic(fmt.Sprintf("xnnpack: node type %d (%s) registered twice or invalid", op, op))
	}
	nodeKernels[op] = &k
}

// kernelOf returns the run time's kernel for a node type, nil when it runs none.
func kernelOf(op schema.XNodeUnion) *nodeKernel { return nodeKernels[op] }

// The helpers every family's kernels share.

// errorf is an error about inconsistent operands met while running (ErrInvalidBlob's).
func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", xnngraph.ErrInvalidBlob, fmt.Sprintf(format, args...))
}

// in returns an fp32 operand that must hold data for its dims (a value computed earlier, a
// constant or an input).
func (p *plan) in(id uint32) (*tensor, error) {
	t := p.val(id)
	if len(t.data) < t.numel() {
		return nil, errorf("value %d is read before it is computed", id)
	}
	return t, nil
}

// inOf is in for an operand stored as T (fp32 values or qint8 codes), also returning its
// elements.
func inOf[T elem](p *plan, id uint32) (*tensor, []T, error) {
	t := p.val(id)
	d := *storage[T](t)
	if len(d) < t.numel() {
		return nil, nil, errorf("value %d is read before it is computed", id)
	}
	return t, d, nil
}

// broadcastStrides returns element strides of shape aligned to out, 0 where it broadcasts.
func broadcastStrides(shape, out []int) []int {
	s := make([]int, len(out))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		k := i + len(out) - len(shape)
		if shape[i] != 1 {
			s[k] = step
		}
		step *= shape[i]
	}
	return s
}

func equalDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// outSize is a convolution or pooling's output extent.
func outSize(in, padA, padB, kernel, stride, dilation int) int {
	eff := dilation*(kernel-1) + 1
	if stride <= 0 || in+padA+padB < eff {
		return 0
	}
	return (in+padA+padB-eff)/stride + 1
}

// nhwc checks a 4-d NHWC operand.
func nhwc(t *tensor, what string) (n, h, w, c int, err error) {
	if len(t.dims) != 4 {
		return 0, 0, 0, 0, errorf("%s must be 4-d NHWC, got %v", what, t.dims)
	}
	return t.dims[0], t.dims[1], t.dims[2], t.dims[3], nil
}
