package passes

//go:generate sh -c "python3 ../tools/reference/generate_core_aten.py && gofmt -w coreaten_gen.go"

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// ErrNotEdge is wrapped when a graph holds an operator outside the Edge dialect.
var ErrNotEdge = errors.New("not an Edge-dialect graph")

// edgeDialectOps are ExecuTorch's own operators that Edge graphs may hold besides core ATen.
var edgeDialectOps = map[string]bool{
	"dim_order_ops._to_dim_order_copy.default": true,
	"dim_order_ops._clone_dim_order.default":   true,
	"dim_order_ops._empty_dim_order.default":   true,
	// Runtime assertions a decomposition adds (one_hot's class checks) stay in the Edge graph.
	"aten._assert_async.msg": true,
	// The Edge verifier's exceptions to core ATen (EXIRATenDialectVerifier's exception list;
	// max and min over all elements are there pending a fix upstream, T188268054). The
	// list's other entries are not accepted here: full_like is decomposed by the table
	// first, and no oracle case exports mkldnn_rnn_layer or aten's quantize_per_tensor and
	// dequantize.self, which etgo therefore still refuses.
	"aten._upsample_bilinear2d_aa.default": true,
	"aten.max.default":                     true,
	"aten.min.default":                     true,
	"executorch_call_delegate":             true,
	// Operators the Edge verifier lets through unconverted (check_valid_edge_op): the
	// runtime assertions of replace_aten_with_edge_pass's DISALLOW_LIST (export's range checks
	// on unbacked sizes) and the symbolic-size operators of _EXECUTORCH_SYM_OPS.
	"aten._assert_scalar.default":               true,
	"aten.scalar_tensor.default":                true,
	"aten.sym_size.int":                         true,
	"aten.sym_stride.int":                       true,
	"aten.sym_numel.default":                    true,
	"aten._local_scalar_dense.default":          true,
	"aten.sym_constrain_range_for_size.default": true,
	"aten.sym_constrain_range.default":          true,
}

// pythonCallables are the modules of the Python functions an exported graph may call (the
// symbolic-size arithmetic of PrimOps): their targets are not operator overloads.
var pythonCallables = map[string]bool{"_operator": true, "builtins": true, "math": true, "torch": true}

// IsCustomOp reports an operator overload outside the aten namespace ("torch_nn.foo.default",
// a torch.library operator). ExecuTorch's Edge verifier checks only aten operators against core
// ATen: any other namespace is accepted whole (EXIRATenDialectVerifier.check_valid_op), and a
// runtime then needs a kernel registered under its name.
func IsCustomOp(target string) bool {
	parts := strings.Split(target, ".")
	if len(parts) != 3 || parts[0] == "aten" || pythonCallables[parts[0]] {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
	}
	return true
}

// IsEdgeOp reports whether target belongs to the Edge dialect: a core ATen operator, the _copy
// form of a core ATen view (views are replaced by copies), one of ExecuTorch's dim-order ops,
// arithmetic on symbolic sizes (PrimOps), a runtime assertion, or an operator outside aten.
func IsEdgeOp(target string) bool {
	if coreATen[target] || viewCopyATen[target] || edgeDialectOps[target] || PrimOps[target] != "" || IsCustomOp(target) {
		return true
	}
	ns, rest, _ := strings.Cut(target, ".")
	op, overload, _ := strings.Cut(rest, ".")
	base, isCopy := strings.CutSuffix(op, "_copy")
	return ns == "aten" && isCopy && viewOps[base] && coreATen["aten."+base+"."+overload]
}

// Preserve is one partitioner's request to keep operators whole through the lowering to Edge
// (its ops_to_not_decompose): the operators, and the per-node filter that decides whether a
// given node is kept (nil: every node).
type Preserve struct {
	Ops  []string
	Keep func(*ir.Graph, *ir.Node) bool
}

// neverPreserved are operators ExecuTorch drops from every preserve list
// (_remove_invalid_ops_for_not_decompose's fixed blocklist): they must be decomposed or stay
// core whatever a partitioner asks.
var neverPreserved = map[string]bool{
	"aten._to_copy.default": true, "aten.mul.Tensor": true, "aten.add.Tensor": true, "aten.sub.Tensor": true,
	"aten.div.Tensor": true, "aten.item.default": true, "aten._local_scalar_dense.default": true,
	"aten.unbind.int": true, "aten.split_with_sizes.default": true,
}

// preserved reports whether node n survives the decomposition rounds: ExecuTorch decomposes
// once per partitioner, each round sparing only that partitioner's operators (and its second,
// full-table pass decomposing the nodes its filter declined), so a node stays whole only if
// every partitioner keeps it — a later partitioner undoes an earlier one's preservation.
func preserved(g *ir.Graph, n *ir.Node, ps []Preserve) bool {
	if neverPreserved[n.Target] || len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if !slices.Contains(p.Ops, n.Target) || (p.Keep != nil && !p.Keep(g, n)) {
			return false
		}
	}
	return true
}

// VerifyEdge checks that every node of g calls an Edge operator or is kept whole by a
// partitioner, and that every tensor is one the Edge dialect holds (strided, not complex32).
// The error names the first node or tensor that is not.
func VerifyEdge(g *ir.Graph, ps []Preserve) error {
	for i, in := range g.Inputs {
		if in.Value != nil {
			if err := checkEdgeTensor(in.Value); err != nil {
				return fmt.Errorf("%w: graph input %d: %v", ErrNotEdge, i, err)
			}
		}
	}
	for i, n := range g.Nodes {
		if IsEdgeOp(n.Target) || preserved(g, n, ps) {
			if err := checkListOfScalars(n); err != nil {
				return fmt.Errorf("%w: node %d (%s, %s): %v", ErrNotEdge, i, n.Name, n.Target, err)
			}
			for _, v := range n.Outputs {
				if v == nil {
					continue
				}
				if err := checkEdgeTensor(v); err != nil {
					return fmt.Errorf("%w: node %d (%s, %s): %v", ErrNotEdge, i, n.Name, n.Target, err)
				}
			}
			continue
		}
		why := "no partitioner keeps it whole"
		for _, p := range ps {
			if slices.Contains(p.Ops, n.Target) {
				why = "not every partitioner keeps this node whole (a filter declines it, or a later partitioner does not list it)"
			}
		}
		return fmt.Errorf("%w: node %d (%s) calls %s, which is not core ATen, %s, and etgo has no decomposition for it yet",
			ErrNotEdge, i, n.Name, n.Target, why)
	}
	return nil
}

// checkListOfScalars refuses an operator returning a list whose first item is 0-d
// (unbind_copy of a vector): ExecuTorch's EdgeOpArgValidator iterates the node's value as if
// it held one entry per schema return, so it takes a Tensor[] result's first item for the
// list and calls len() on it, which fails for a 0-d tensor ("len() of a 0-d tensor"): the
// official conversion refuses such a node.
func checkListOfScalars(n *ir.Node) error {
	if !n.ListOutput || len(n.Outputs) == 0 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil || len(n.Outputs[0].Meta.Sizes) != 0 {
		return nil
	}
	return fmt.Errorf("it returns a list of 0-d tensors, which ExecuTorch's Edge verifier fails on (len() of a 0-d tensor)")
}

// checkEdgeTensor refuses the tensors the official Edge conversion refuses whatever operator
// makes them: sparse (and mkldnn) layouts, which no Edge operator takes (to_sparse is not core
// ATen; the verifier refuses it), and complex32, which no ExecuTorch kernel's dtype list holds
// (EdgeOpArgValidator: "taking Tensor inputs with mismatched dtypes"). complex64 and
// complex128 are Edge tensors: to(torch.cfloat) and the FFT operators make them.
func checkEdgeTensor(v *ir.Value) error {
	if v.Kind != ir.TensorValue || v.Meta == nil {
		return nil
	}
	if l := v.Meta.Layout; l != ir.Strided {
		return fmt.Errorf("tensor %q has layout %s; the Edge dialect holds only strided tensors", v.Name, l)
	}
	if v.Meta.DType == ir.ComplexHalf {
		return fmt.Errorf("tensor %q is complex32, which no ExecuTorch operator takes", v.Name)
	}
	return nil
}

// ToEdge lowers an exported ATen graph to the Edge dialect as far as etgo can: in-place ops
// become functional (with partitioners, as run_decompositions({}) does, decomposing the
// operators export cannot preserve), then one decomposition round per partitioner (in order) spares what that
// partitioner keeps whole, views become copies, dead nodes go, and the result is checked with
// VerifyEdge.
func ToEdge(g *ir.Graph, ps []Preserve) ([]Report, error) {
	all := []Pass{Functionalize{}}
	if len(ps) == 0 {
		all = append(all, Decompose{})
	} else {
		// to_edge_transform_and_lower first functionalizes with run_decompositions({}), which
		// decomposes the CompositeImplicitAutograd operators export cannot keep whole
		// (contiguous, reshape, flatten, …) while every other operator still has its exported
		// strides: a contiguous after an attention is a clone here and a no-op in to_edge.
		all = append(all, Decompose{Only: unpreservableCIA})
	}
	for _, p := range ps {
		all = append(all, Decompose{Preserve: []Preserve{p}})
	}
	all = append(all, BindUnbackedSizes{}, ScalarToTensor{}, ReplaceViewOps{}, RemoveNoops{}, MemoryFormatOps{}, DeadCodeElimination{})
	reports, err := NewManager(all...).Run(g)
	if err != nil {
		return reports, err
	}
	return reports, VerifyEdge(g, ps)
}
