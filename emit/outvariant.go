package emit

import (
	"errors"
	"fmt"
	"sort"

	"github.com/etgo/etgo/internal/opschema"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// ErrNoOutVariant is wrapped when an Edge operator has no out variant, so no kernel can run it.
var ErrNoOutVariant = errors.New("no out variant")

// OutVariant returns the kernel name to_executorch calls for an Edge operator:
// "aten.sum.dim_IntList" runs as "aten::sum.IntList_out". The table is ExecuTorch's own
// to_out_variant, generated from torch (internal/opschema).
func OutVariant(target string) (string, error) {
	if k, ok := opschema.OutVariant(target); ok {
		return k, nil
	}
	if opschema.NoOutVariant(target) {
		return "", fmt.Errorf("%w: %s has no out form and cannot run as a kernel", ErrNoOutVariant, target)
	}
	if passes.IsCustomOp(target) {
		// The Edge dialect keeps operators outside aten whole; to_executorch needs their out
		// variant from the library that defines them ("Missing out variants") and a runtime a
		// kernel registered under that name. etgo knows neither.
		return "", fmt.Errorf("%w: %s is a custom operator (outside aten): etgo knows no out variant or kernel for it", ErrNoOutVariant, target)
	}
	return "", fmt.Errorf("%w: %s is not an Edge operator etgo knows", ErrNoOutVariant, target)
}

// Kernel is one out-variant kernel a plan's fallback operators need.
type Kernel struct {
	Name  string   // "aten::add.out"
	Nodes []string // the nodes that call it
}

// FallbackKernels lists the kernels the plan's remaining (non-delegated) operators need, sorted
// by name. Delegate calls need their backend, not a kernel, and are skipped.
func FallbackKernels(plan *partition.Plan) ([]Kernel, error) {
	byName := map[string]*Kernel{}
	for _, n := range plan.Graph.Nodes {
		if n.Target == partition.CallDelegate {
			continue
		}
		name, err := kernelOf(n)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name, err)
		}
		k, ok := byName[name]
		if !ok {
			k = &Kernel{Name: name}
			byName[name] = k
		}
		k.Nodes = append(k.Nodes, n.Name)
	}
	out := make([]Kernel, 0, len(byName))
	for _, k := range byName {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// kernelOf is the kernel a remaining node runs: its out variant, or the primitive operator of a
// symbolic-size node (sym_size, arithmetic on sizes), which has no out form.
func kernelOf(n *ir.Node) (string, error) {
	if n.Target == "aten.sym_size.int" {
		return "aten::sym_size.int", nil
	}
	if k := passes.PrimOps[n.Target]; k != "" {
		return k, nil
	}
	return OutVariant(n.Target)
}
