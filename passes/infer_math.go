package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Meta rules for the operators the math decompositions emit.

func init() {
	// clamp with tensor bounds broadcasts self with them and promotes their types.
	registerInfer(elementwise([]string{"self", "min", "max"}, nil), "aten.clamp.Tensor")
}

var _ = fmt.Errorf
var _ ir.DType
