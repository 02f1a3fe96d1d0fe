package zoo

import (
	"strings"
	"unicode"

	"github.com/etgo/etgo/partition"
)

// FXName is how get_delegation_info keys an operator: FX's node name for the target, dots as
// underscores and CamelCase snake-cased ("aten.sum.dim_IntList" is "aten_sum_dim_int_list").
// ATen operators to_edge leaves as they are (its DISALLOW_LIST) are named by FX as plain
// OpOverloads: the operator name alone.
func FXName(target string) string {
	if target == "aten.scalar_tensor.default" {
		return "scalar_tensor"
	}
	var b strings.Builder
	prevLower := false
	for _, c := range strings.ReplaceAll(target, ".", "_") {
		if prevLower && unicode.IsUpper(c) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
		prevLower = unicode.IsLower(c)
	}
	return b.String()
}

// Breakdown is a plan's delegated and non-delegated count per operator, keyed as
// Delegation.ByOperator is (getitems included, as get_delegation_info counts them).
func Breakdown(p *partition.Plan) map[string]OperatorBreakdown {
	out := map[string]OperatorBreakdown{}
	for target, c := range p.OperatorCounts() {
		out[FXName(target)] = OperatorBreakdown{Delegated: c.Delegated, NonDelegated: c.NonDelegated}
	}
	return out
}
