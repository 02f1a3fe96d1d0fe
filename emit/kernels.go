package emit

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/etgo/etgo/pte"
)

// ErrKernelMissing is wrapped when a program calls operators a kernel registry lacks.
var ErrKernelMissing = errors.New("kernel missing")

// CheckKernels reports, in one error wrapping ErrKernelMissing, every operator the program's
// KernelCalls use that has reports missing, each with the instructions that call it (pass a
// executor.Registry's HasKernel; emit does not depend on the runtime). ExecuTorch
// only finds this when the program is loaded (pytorch/executorch#21950); checking it when the
// program is emitted lets a lowering refuse, or warn, before a .pte ships.
func CheckKernels(p *pte.Program, has func(kernel string) bool) error {
	if p == nil || has == nil {
		return fmt.Errorf("emit: CheckKernels needs a program and a registry")
	}
	for _, plan := range p.ExecutionPlans {
		for c, chain := range plan.Chains {
			for i, in := range chain.Instructions {
				if kc, ok := in.(pte.KernelCall); ok && (kc.OpIndex < 0 || int(kc.OpIndex) >= len(plan.Operators)) {
					return fmt.Errorf("emit: method %q chain %d instruction %d: operator index %d out of range", plan.Name, c, i, kc.OpIndex)
				}
			}
		}
	}
	var missing []string
	byMethod := map[string][]string{}
	var methods []string
	for _, n := range p.Needs() {
		if n.Kind != pte.NeedKernel {
			continue
		}
		if has(n.Name) {
			continue
		}
		if byMethod[n.Method] == nil {
			methods = append(methods, n.Method)
		}
		byMethod[n.Method] = append(byMethod[n.Method], fmt.Sprintf("%s (method %q, instructions %s)", n.Name, n.Method, strings.Join(n.Instructions, ", ")))
	}
	for _, m := range methods {
		sort.Strings(byMethod[m])
		missing = append(missing, byMethod[m]...)
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %d operator(s) have no kernel in this registry: %s", ErrKernelMissing, len(missing), strings.Join(missing, "; "))
	}
	return nil
}
