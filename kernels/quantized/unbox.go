package quantized

import "github.com/etgo/etgo/kernels/unbox"

// Generated unboxing, as in kernels/portable and kernels/optimized. unbox_gen.go holds, for
// every kernel this package registers, a function unbox<Kernel>(args) that checks the argument
// count and every argument's tag against the kernel's schema in internal/opschema and returns
// its arguments as a typed struct (shared by the kernels whose arguments have the same names
// and types: the six quantized embeddings take two structs). A kernel reads a.Input, a.Scales,
// a.Out; the positions, names and types come from torch's schemas, not from each kernel, and
// the reading is package unbox's, so a bad program is refused in the same words whichever
// library runs it ("argument 3 (weight_quant_min): want Int, got Tensor"). What the tags do
// not say is checked after unboxing, by args.go's helpers: a ScalarType must name a type etgo
// knows, an out must be writable, the return slot must hold the outs.
//
//go:generate go run ../../internal/cmd/unboxgen -pkg quantized -o unbox_gen.go -test unbox_gen_test.go

// The package's short names for unbox's argument types, which the generated code uses.
type (
	scalar          = unbox.Scalar
	optional[T any] = unbox.Optional[T]
	unboxFn[A any]  = unbox.Fn[A]
)
