package llm

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// contiguous4D checks what the official kernels require of every tensor they index by hand.
func contiguous4D(t *executor.Tensor, i int, name string) error {
	if t.Dim() != 4 {
		return unbox.ArgError(i, name, "must be a 4-D tensor, got sizes %v", t.Sizes())
	}
	if !t.IsContiguous() {
		return unbox.ArgError(i, name, "must be in contiguous dim order, got %v", t.DimOrder())
	}
	return nil
}
