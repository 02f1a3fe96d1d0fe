package pte

import (
	"fmt"
	"slices"
	"sort"
)

// NeedKind says what a program needs from the binary that runs it.
type NeedKind string

const (
	NeedBackend NeedKind = "backend" // a registered backend, by id
	NeedKernel  NeedKind = "kernel"  // a kernel, by ns::op.overload
	NeedData    NeedKind = "data"    // an external tensor (.ptd), by fully qualified name
)

// Need is one thing one method needs, and where the method uses it: the instructions that
// call the kernel or the delegate ("12", or "chain:instruction" in a method with several
// chains). A backend is needed once per delegate, which Delegate indexes. This is the one
// description of a program's requirements that the runtime's load check, the emitter's
// missing-kernel check, `etgo check` and `etgo inspect` all read.
type Need struct {
	Kind         NeedKind
	Name         string
	Method       string
	Delegate     int // NeedBackend only
	Instructions []string
}

// Needs lists every method's needs, in the program's method order: its delegates' backends
// in delegate order, then its kernels in the order the method first calls them, then its
// external tensors in value order. Operator and
// delegate indexes out of range (which Parse refuses) are skipped.
func (p *Program) Needs() []Need {
	var out []Need
	for _, plan := range p.ExecutionPlans {
		where := func(c, i int) string {
			if len(plan.Chains) > 1 {
				return fmt.Sprintf("%d:%d", c, i)
			}
			return fmt.Sprint(i)
		}
		delegates := make([][]string, len(plan.Delegates))
		kernels := map[string][]string{}
		var order []string // kernels in first-use order
		for c, chain := range plan.Chains {
			for i, in := range chain.Instructions {
				switch in := in.(type) {
				case KernelCall:
					if in.OpIndex >= 0 && int(in.OpIndex) < len(plan.Operators) {
						name := plan.Operators[in.OpIndex].KernelName()
						if kernels[name] == nil {
							order = append(order, name)
						}
						kernels[name] = append(kernels[name], where(c, i))
					}
				case DelegateCall:
					if in.DelegateIndex >= 0 && int(in.DelegateIndex) < len(plan.Delegates) {
						delegates[in.DelegateIndex] = append(delegates[in.DelegateIndex], where(c, i))
					}
				}
			}
		}
		for d, at := range delegates {
			out = append(out, Need{Kind: NeedBackend, Name: plan.Delegates[d].ID, Method: plan.Name, Delegate: d, Instructions: at})
		}
		for _, name := range order {
			out = append(out, Need{Kind: NeedKernel, Name: name, Method: plan.Name, Instructions: kernels[name]})
		}
		var data []string
		for _, v := range plan.Values {
			if t, ok := v.(*Tensor); ok && t.ExtraTensorInfo != nil && t.ExtraTensorInfo.Location == locationExternal &&
				!slices.Contains(data, t.ExtraTensorInfo.FullyQualifiedName) {
				data = append(data, t.ExtraTensorInfo.FullyQualifiedName)
			}
		}
		for _, name := range data {
			out = append(out, Need{Kind: NeedData, Name: name, Method: plan.Name})
		}
	}
	return out
}

// names lists, sorted and without repeats, the names of the needs of one kind.
func names(needs []Need, kind NeedKind) []string {
	set := map[string][]string{}
	for _, n := range needs {
		if n.Kind == kind {
			set[n.Name] = nil
		}
	}
	return sortedKeys(set)
}

// RequiredBackends lists, sorted and without repeats, the backend ids that the program's
// delegates name: what a runtime must have registered to load every method.
func (f *File) RequiredBackends() []string { return names(f.Program.Needs(), NeedBackend) }

// RequiredOperators lists, sorted and without repeats, the kernel names (ns::op.overload) that
// the program's kernel calls use.
func (f *File) RequiredOperators() []string { return names(f.Program.Needs(), NeedKernel) }

func sortedKeys[V any](set map[string]V) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
