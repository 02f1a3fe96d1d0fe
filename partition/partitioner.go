package partition

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/etgo/etgo/ir"
)

// CompileSpec is one backend option carried into the .pte next to the delegate's blob.
type CompileSpec struct {
	Key   string
	Value []byte
}

// DelegationSpec names the backend that compiles a region and the options it gets, as
// ExecuTorch's DelegationSpec does ("XnnpackBackend", no compile specs).
type DelegationSpec struct {
	BackendID    string
	CompileSpecs []CompileSpec
}

// Reason is a stable code for why a partitioner declined a node. Tools and tests match on the
// code; the sentence next to it is for people.
type Reason string

const (
	// UnsupportedOperator: the partitioner has no rule for the node's operator.
	UnsupportedOperator Reason = "unsupported-operator"
	// UnsupportedDType: an input or output has a dtype the backend does not take, or inputs mix dtypes.
	UnsupportedDType Reason = "dtype"
	// NonConstantWeight: a weight, bias or statistic the backend must own is computed at run time.
	NonConstantWeight Reason = "non-constant-weight"
	// DynamicShape: a dimension or argument is symbolic where the backend needs it fixed.
	DynamicShape Reason = "dynamic-shape"
	// Geometry: the operator's arguments describe a case the backend does not implement
	// (conv3d, ceil-mode pooling, softmax off the last dim, …).
	Geometry Reason = "geometry"
	// PrecisionNotEnabled: the node's precision (fp32, static or dynamic quantisation) is not
	// among those the partitioner was configured for.
	PrecisionNotEnabled Reason = "precision-not-enabled"
	// QuantPattern: a quantised operator lacks the dequantize/quantize nodes its pattern needs.
	QuantPattern Reason = "quant-pattern"
	// NonTensorArgument: the node takes a value that is not a tensor (a symbolic size).
	NonTensorArgument Reason = "non-tensor-argument"
	// EmptyTensor: an input or output has no elements.
	EmptyTensor Reason = "empty-tensor"
	// Unexamined: the partitioner returned no decision for the node (a partitioner bug, or a
	// node the backend never looks at, such as an earlier delegate call).
	Unexamined Reason = "unexamined"
)

// Decline is one partitioner's refusal of one node.
type Decline struct {
	Reason Reason
	Detail string // a sentence: "weight is computed at run time, not a parameter"
}

// Declinef makes a refusal, its sentence formatted as by fmt.Sprintf.
func Declinef(r Reason, format string, args ...any) *Decline {
	return &Decline{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// Region is a set of nodes a partitioner claims as one delegate call.
type Region struct {
	// Nodes are in graph order.
	Nodes []*ir.Node
	// Constants are the parameters, buffers and lifted constants the backend takes into its blob
	// (weights and biases); they stop being runtime inputs of the call. A constant also used
	// outside the region stays a graph input too (ExecuTorch duplicates it).
	Constants []*ir.Value
}

// Result is what one partitioner proposes for a graph.
type Result struct {
	Regions []Region
	// Declined gives the reason for every node the partitioner examined and did not claim.
	Declined map[*ir.Node]Decline
}

// Partitioner is one backend's admission policy over the Edge graph.
type Partitioner interface {
	// Spec is the backend and options every region of this partitioner is compiled with.
	Spec() DelegationSpec
	// OpsToNotDecompose lists the operators ("aten.linear.default") the partitioner wants kept
	// whole when the graph is lowered to Edge, with the per-node filter that decides whether a
	// given node is kept. A partitioner that keeps an operator must then claim every node the
	// filter accepts.
	OpsToNotDecompose() (ops []string, keep func(g *ir.Graph, n *ir.Node) bool)
	// Partition proposes regions. It must not change g; every region must be closed (no path
	// leaves it and comes back), and no node may be in two regions.
	Partition(g *ir.Graph) (*Result, error)
}

// CallDelegate is the target of the node that replaces a region in the remaining graph.
const CallDelegate = "executorch_call_delegate"

// Delegate is one lowered region: the call node that replaced it and what it holds.
type Delegate struct {
	Spec DelegationSpec
	// Partitioner is the partitioner's position in the ordered list.
	Partitioner int
	// Call is the node in the remaining graph; its arguments are the region's runtime inputs
	// and its outputs the region's values used outside it.
	Call   *ir.Node
	Region Region
	// ConstantSpecs are the graph-input specs of Region.Constants, in the same order (the
	// remaining graph drops them once only the blob uses them).
	ConstantSpecs []ir.InputSpec
}

// Decision says what happened to one node of the graph handed to Lower.
type Decision struct {
	Node   string
	Target string
	// Delegate is the index into Plan.Delegates of the region that took the node, or -1.
	Delegate int
	// Declines holds, in partitioner order, each refusal the node got before it was claimed or
	// left to the portable kernels.
	Declines []PartitionerDecline
	// FLOPs is the node's estimated work (FLOPs): what coverage is weighted by.
	FLOPs int64
	// Getitems is how many getitem nodes an FX graph has for this node: one per used output of
	// an operator that returns several values or a list (ExecuTorch's delegation counts include
	// them; etgo's IR keeps multiple outputs on the node instead).
	Getitems int
}

// PartitionerDecline is a refusal attributed to a partitioner.
type PartitionerDecline struct {
	Partitioner int
	BackendID   string
	Decline
}

// Plan is the result of running an ordered list of partitioners.
type Plan struct {
	// Graph is the remaining graph: declined nodes and one CallDelegate node per region.
	Graph     *ir.Graph
	Delegates []Delegate
	// Decisions covers every node of the input graph, in its order.
	Decisions []Decision
}

// Lower runs the partitioners in order on g, collapsing each one's regions into call nodes
// before the next one sees the graph, as to_edge_transform_and_lower does. g is changed in
// place and becomes Plan.Graph. After the last partitioner, a node whose operator some
// partitioner asked to keep whole and that is still in the graph is an error, as in ExecuTorch
// (nothing else can run a non-core operator), unless it is a quantisation primitive.
func Lower(g *ir.Graph, ps []Partitioner) (*Plan, error) {
	plan := &Plan{Graph: g}
	at := map[*ir.Node]int{}
	users := g.Users()
	for i, n := range g.Nodes {
		at[n] = i
		d := Decision{Node: n.Name, Target: n.Target, Delegate: -1, FLOPs: FLOPs(n)}
		if n.ListOutput || len(n.Outputs) > 1 {
			for _, v := range n.Outputs {
				if v != nil && (len(users[v]) > 0 || g.IsGraphOutput(v)) {
					d.Getitems++
				}
			}
		}
		plan.Decisions = append(plan.Decisions, d)
	}
	for pi, p := range ps {
		spec := p.Spec()
		res, err := p.Partition(g)
		if err != nil {
			return nil, fmt.Errorf("partition: %s: %w", spec.BackendID, err)
		}
		if err := checkRegions(g, res.Regions); err != nil {
			return nil, fmt.Errorf("partition: %s: %w", spec.BackendID, err)
		}
		claimed := map[*ir.Node]bool{}
		for _, r := range res.Regions {
			for _, n := range r.Nodes {
				claimed[n] = true
			}
		}
		for _, n := range g.Nodes {
			i, original := at[n]
			if !original || claimed[n] {
				continue
			}
			d, ok := res.Declined[n]
			if !ok {
				d = Decline{Unexamined, "the partitioner gave no decision for this node"}
			}
			plan.Decisions[i].Declines = append(plan.Decisions[i].Declines,
				PartitionerDecline{Partitioner: pi, BackendID: spec.BackendID, Decline: d})
		}
		// One users map serves every region: a region's nodes stay "outside" for the others.
		users := g.Users()
		first := len(plan.Delegates)
		for _, r := range res.Regions {
			// ExecuTorch fuses regions one at a time, re-sorting the graph after each
			// (legalize); a region's nodes are taken in the order the graph has then.
			inGraphOrder(g, r.Nodes)
			// The submodule's placeholders follow graph order, parameters first: constants too.
			inputAt := map[*ir.Value]int{}
			for i, in := range g.Inputs {
				inputAt[in.Value] = i
			}
			sort.SliceStable(r.Constants, func(i, j int) bool { return inputAt[r.Constants[i]] < inputAt[r.Constants[j]] })
			call := collapse(g, users, r, len(plan.Delegates))
			if err := sortTopologically(g); err != nil {
				return nil, fmt.Errorf("partition: after %s: %w", spec.BackendID, err)
			}
			legalize(g, call)
			for _, n := range r.Nodes {
				if i, ok := at[n]; ok {
					plan.Decisions[i].Delegate = len(plan.Delegates)
				}
			}
			plan.Delegates = append(plan.Delegates, Delegate{Spec: spec, Partitioner: pi, Call: call, Region: r,
				ConstantSpecs: inputSpecs(g, r.Constants)})
		}
		if err := sortTopologically(g); err != nil {
			return nil, fmt.Errorf("partition: after %s: %w", spec.BackendID, err)
		}
		plan.numberDelegates(first)
		dropUnusedInputs(g)
	}
	for _, p := range ps {
		ops, keep := p.OpsToNotDecompose()
		for _, n := range g.Nodes {
			if quantPrimitives[n.Target] {
				continue
			}
			if slices.Contains(ops, n.Target) && (keep == nil || keep(g, n)) {
				return nil, fmt.Errorf("partition: node %s (%s) was not decomposed or delegated: %s asked to keep it whole but did not claim it",
					n.Name, n.Target, p.Spec().BackendID)
			}
		}
	}
	return plan, nil
}

// quantPrimitives are ExecuTorch's _QUANT_PRIMITIVES, which its check for kept-whole operators
// left in the graph skips: XNNPACK keeps torchao's affine quantisation ops whole and never
// claims them (its affine configs claim nothing), so the check would otherwise refuse every
// graph holding one. Whether a kernel runs them is for emission's kernel check to say.
var quantPrimitives = map[string]bool{
	"quantized_decomposed.dequantize_per_channel.default": true,
	"quantized_decomposed.dequantize_per_tensor.default":  true,
	"quantized_decomposed.dequantize_per_tensor.tensor":   true,
	"quantized_decomposed.convert_element_type.no_fuse":   true,
	"quantized_decomposed.quantize_per_tensor.default":    true,
	"quantized_decomposed.quantize_per_tensor.tensor":     true,
	"quantized_decomposed.quantize_per_channel.default":   true,
	"quantized_decomposed.choose_qparams.tensor":          true,
	"torchao.dequantize_affine.default":                   true,
	"torchao.quantize_affine.default":                     true,
	"torchao.choose_qparams_affine.default":               true,
}

// numberDelegates renumbers the delegates from index first on by their calls' positions in the
// graph: regions are fused in the partitioner's order, but ExecuTorch names the lowered modules
// (and so orders the program's delegates) as their calls appear in the final graph.
func (p *Plan) numberDelegates(first int) {
	pos := map[*ir.Node]int{}
	for i, n := range p.Graph.Nodes {
		pos[n] = i
	}
	fresh := slices.Clone(p.Delegates[first:])
	order := make([]int, len(fresh))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pos[fresh[order[a]].Call] < pos[fresh[order[b]].Call] })
	renumber := make(map[int]int, len(order))
	for to, from := range order {
		p.Delegates[first+to] = fresh[from]
		renumber[first+from] = first + to
		p.Delegates[first+to].Call.Name = fmt.Sprintf("%s_%d", CallDelegate, first+to)
	}
	for i := range p.Decisions {
		if k, ok := renumber[p.Decisions[i].Delegate]; ok {
			p.Decisions[i].Delegate = k
		}
	}
}

// checkRegions verifies a partitioner's proposal: nodes belong to g, no node is claimed twice,
// and each region is closed.
func checkRegions(g *ir.Graph, regions []Region) error {
	d := NewDAG(g)
	owner := map[*ir.Node]int{}
	for ri, r := range regions {
		if len(r.Nodes) == 0 {
			return fmt.Errorf("region %d is empty", ri)
		}
		s := newBitset(len(g.Nodes))
		for _, n := range r.Nodes {
			i, ok := d.Index(n)
			if !ok {
				return fmt.Errorf("region %d claims node %s, which is not in the graph", ri, n.Name)
			}
			if n.Target == CallDelegate {
				return fmt.Errorf("region %d claims %s, a delegate an earlier partitioner made (nested delegation is not supported)", ri, n.Name)
			}
			if prev, dup := owner[n]; dup {
				return fmt.Errorf("node %s is claimed by regions %d and %d", n.Name, prev, ri)
			}
			owner[n] = ri
			s.set(i)
		}
		if d.wouldCycle(s) {
			return fmt.Errorf("region %d (%s …) does not form one fully contained subgraph: a path leaves it and comes back", ri, r.Nodes[0].Name)
		}
	}
	return nil
}

// collapse replaces a region's nodes by one call node. The call's argument is the list of values
// the region reads from outside (owned constants excluded); its outputs are the region's values
// that outside nodes or the graph's outputs use. Value objects are kept, so every outside use
// now refers to the call.
func collapse(g *ir.Graph, users map[*ir.Value][]*ir.Node, r Region, k int) *ir.Node {
	in := map[*ir.Node]bool{}
	for _, n := range r.Nodes {
		in[n] = true
	}
	owned := map[*ir.Value]bool{}
	for _, c := range r.Constants {
		owned[c] = true
	}
	call := &ir.Node{Name: fmt.Sprintf("%s_%d", CallDelegate, k), Target: CallDelegate, ListOutput: true}
	var inputs []*ir.Value
	seen := map[*ir.Value]bool{}
	for _, n := range r.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil || seen[v] || owned[v] || (v.Producer != nil && in[v.Producer]) {
					continue
				}
				seen[v] = true
				inputs = append(inputs, v)
			}
		}
	}
	// fuse_as_graphmodule takes external inputs in the order the region's nodes read them, or in
	// graph order when every one (owned constants included) is a graph input.
	allInputs := len(inputs) > 0
	for _, n := range r.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v != nil && !(v.Producer != nil && in[v.Producer]) && v.Producer != nil {
					allInputs = false
				}
			}
		}
	}
	if allInputs {
		at := map[*ir.Value]int{}
		for i, spec := range g.Inputs {
			at[spec.Value] = i
		}
		sort.SliceStable(inputs, func(i, j int) bool { return at[inputs[i]] < at[inputs[j]] })
	}
	call.Args = []ir.Arg{{Name: "inputs", Kind: ir.ArgTensors, Values: inputs}}
	for _, n := range r.Nodes {
		for _, v := range n.Outputs {
			if v == nil {
				continue
			}
			external := g.IsGraphOutput(v)
			for _, u := range users[v] {
				if !in[u] {
					external = true
				}
			}
			if external {
				v.Producer = call
				call.Outputs = append(call.Outputs, v)
			}
		}
	}
	// Put the call where the region's first node was; sortTopologically fixes the order.
	kept := make([]*ir.Node, 0, len(g.Nodes)-len(r.Nodes)+1)
	placed := false
	for _, n := range g.Nodes {
		if in[n] {
			if !placed {
				kept = append(kept, call)
				placed = true
			}
			continue
		}
		kept = append(kept, n)
	}
	g.Nodes = kept
	return call
}

// sortTopologically reorders g.Nodes so every node follows the producers of its arguments,
// keeping the current order wherever it is already valid.
func sortTopologically(g *ir.Graph) error {
	pos := map[*ir.Node]int{}
	for i, n := range g.Nodes {
		pos[n] = i
	}
	indeg := make([]int, len(g.Nodes))
	users := make([][]int, len(g.Nodes))
	for i, n := range g.Nodes {
		seen := map[int]bool{}
		for _, a := range n.Args {
			for _, v := range a.Values {
				if v == nil || v.Producer == nil {
					continue
				}
				p, ok := pos[v.Producer]
				if !ok {
					return fmt.Errorf("node %s reads %s, whose producer %s is not in the graph", n.Name, v.Name, v.Producer.Name)
				}
				if !seen[p] {
					seen[p] = true
					indeg[i]++
					users[p] = append(users[p], i)
				}
			}
		}
	}
	// Kahn's algorithm, always taking the earliest ready node.
	var ready []int
	for i, d := range indeg {
		if d == 0 {
			ready = append(ready, i)
		}
	}
	out := make([]*ir.Node, 0, len(g.Nodes))
	for len(ready) > 0 {
		sort.Ints(ready)
		i := ready[0]
		ready = ready[1:]
		out = append(out, g.Nodes[i])
		for _, u := range users[i] {
			if indeg[u]--; indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(out) != len(g.Nodes) {
		return fmt.Errorf("the graph has a cycle after collapsing regions")
	}
	g.Nodes = out
	return nil
}

// dropUnusedInputs removes parameters, buffers and constants that only delegates' blobs use now.
func dropUnusedInputs(g *ir.Graph) {
	users := g.Users()
	kept := g.Inputs[:0]
	for _, in := range g.Inputs {
		if in.Kind != ir.UserInput && in.Value != nil && len(users[in.Value]) == 0 && !g.IsGraphOutput(in.Value) {
			continue
		}
		kept = append(kept, in)
	}
	g.Inputs = kept
}

// Summary is the plan's one-line verdict for each backend: "N of M operators delegated to X in
// K regions". M counts the input graph's nodes.
func (p *Plan) Summary() string {
	cov := p.Coverage()
	if len(cov) == 0 {
		return fmt.Sprintf("0 of %d operators delegated", len(p.Decisions))
	}
	var parts []string
	for _, c := range cov {
		parts = append(parts, fmt.Sprintf("%d of %d operators delegated to %s in %d region%s",
			c.Delegated, c.Operators, c.BackendID, c.Regions, plural(c.Regions)))
	}
	return strings.Join(parts, "; ")
}

// OperatorCount is how many nodes of one operator were delegated and how many were not.
type OperatorCount struct {
	Delegated    int `json:"delegated"`
	NonDelegated int `json:"non_delegated"`
}

// OperatorCounts tallies the input graph's nodes by target, in the terms of ExecuTorch's
// get_delegation_info: the "getitem" row counts the getitems of multi-output operators (inside
// a delegate when their operator is) plus one non-delegated getitem per output of every delegate
// call, which is how the lowered FX graph reads a delegate's results.
func (p *Plan) OperatorCounts() map[string]OperatorCount {
	out := map[string]OperatorCount{}
	var get OperatorCount
	for _, d := range p.Decisions {
		c := out[d.Target]
		if d.Delegate >= 0 {
			c.Delegated++
			get.Delegated += d.Getitems
		} else {
			c.NonDelegated++
			get.NonDelegated += d.Getitems
		}
		out[d.Target] = c
	}
	for _, d := range p.Delegates {
		get.NonDelegated += len(d.Call.Outputs)
	}
	if get != (OperatorCount{}) {
		out["getitem"] = get
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
