package xnnpack

import (
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
)

// TestNodeKernels: every node type of the schema has a run-time kernel except the two etgo
// refuses by name (argmax pooling and scaled dot-product attention), and the plan's flags agree
// with the kernels (a type that takes a fused activation applies it in its own store, with its
// output range).
func TestNodeKernels(t *testing.T) {
	refused := map[schema.XNodeUnion]bool{
		schema.XNodeUnionXNNArgMaxPooling2d:           true,
		schema.XNodeUnionXNNScaledDotProductAttention: true,
	}
	for op, name := range schema.EnumNamesXNodeUnion {
		if op == schema.XNodeUnionNONE {
			continue
		}
		k := kernelOf(op)
		switch {
		case refused[op] && k != nil:
			t.Errorf("%s has a kernel; the plan is expected to refuse it", name)
		case !refused[op] && (k == nil || k.run == nil):
			t.Errorf("%s has no fp32 kernel", name)
		case k != nil && k.takesActivation && !k.ownRange:
			t.Errorf("%s takes a fused activation but leaves its output range to the plan, which would clamp after the activation", name)
		}
	}
}
