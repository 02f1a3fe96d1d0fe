// Package lower is ExecuTorch's lowering entry points in Go: ToEdgeTransformAndLower (Edge
// dialect, transform passes, the ordered partitioners) and ToExecuTorch (each delegate's backend
// preprocess, then emission into a program). The command line, tests and embedders all go
// through here, so the pipeline is assembled in one place.
package lower

import (
	"fmt"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// Options configure ToEdgeTransformAndLower.
type Options struct {
	// Partitioners run in order; each sees what the earlier ones left.
	Partitioners []partition.Partitioner
	// TransformPasses run on the Edge graph before partitioning (get_transform_passes()).
	TransformPasses []passes.Pass
}

// Edge is the result of ToEdgeTransformAndLower.
type Edge struct {
	Plan *partition.Plan
	// Reports are the Edge lowering's and the transform passes' reports, in order.
	Reports []passes.Report
}

// ToEdgeTransformAndLower lowers an exported graph to Edge, sparing what each partitioner keeps
// whole, runs the transform passes, then the partitioners in order. g is changed in place and
// becomes the plan's remaining graph.
func ToEdgeTransformAndLower(g *ir.Graph, opts Options) (*Edge, error) {
	var preserve []passes.Preserve
	for _, p := range opts.Partitioners {
		ops, keep := p.OpsToNotDecompose()
		preserve = append(preserve, passes.Preserve{Ops: ops, Keep: keep})
	}
	reports, err := passes.ToEdge(g, preserve)
	if err != nil {
		return nil, fmt.Errorf("to Edge: %w", err)
	}
	more, err := passes.NewManager(opts.TransformPasses...).Run(g)
	reports = append(reports, more...)
	if err != nil {
		return nil, err
	}
	plan, err := partition.Lower(g, opts.Partitioners)
	if err != nil {
		return nil, err
	}
	// The partitioners saw the Edge graph's runtime assertions; to_executorch drops them
	// (RemoveGraphAssertsPass), and so does the plan, which lists the kernels emission needs.
	more, err = passes.NewManager(passes.RemoveGraphAsserts{}).Run(plan.Graph)
	reports = append(reports, more...)
	if err != nil {
		return nil, err
	}
	return &Edge{Plan: plan, Reports: reports}, nil
}

// ToExecuTorch compiles every delegate of the plan with its backend's preprocess, found in reg
// by the delegate's backend id, and emits the program (to_executorch). A delegate whose backend
// reg does not have is an error naming it.
func ToExecuTorch(plan *partition.Plan, reg *backends.Registry) (*pte.Contents, error) {
	pre := map[string]emit.PreprocessFunc{}
	for _, d := range plan.Delegates {
		id := d.Spec.BackendID
		if _, done := pre[id]; done {
			continue
		}
		b := reg.ByID(id)
		if b == nil {
			return nil, fmt.Errorf("to_executorch: delegate %s is for backend %s, which this binary cannot compile for (it has: %v)", d.Call.Name, id, reg.Names())
		}
		pre[id] = func(d *partition.Delegate) ([]byte, []pte.NamedBlob, error) { return b.Preprocess(plan.Graph, d) }
	}
	return emit.Program(plan, emit.Options{Preprocess: pre})
}
