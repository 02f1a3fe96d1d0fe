package pte

import "sort"

// RequiredBackends lists, sorted and without repeats, the backend ids that the program's
// delegates name: what a runtime must have registered to load every method.
func (f *File) RequiredBackends() []string {
	set := map[string]bool{}
	for _, plan := range f.Program.ExecutionPlans {
		for _, d := range plan.Delegates {
			set[d.ID] = true
		}
	}
	return sortedKeys(set)
}

// RequiredOperators lists, sorted and without repeats, the kernel names (ns::op.overload) that
// the program's kernel calls use.
func (f *File) RequiredOperators() []string {
	set := map[string]bool{}
	for _, plan := range f.Program.ExecutionPlans {
		for _, chain := range plan.Chains {
			for _, in := range chain.Instructions {
				if k, ok := in.(KernelCall); ok {
					set[plan.Operators[k.OpIndex].KernelName()] = true
				}
			}
		}
	}
	return sortedKeys(set)
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
