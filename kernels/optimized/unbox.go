package optimized

import "github.com/etgo/etgo/kernels/unbox"

// Generated unboxing. unbox_gen.go holds, for every kernel this package registers that has a
// schema in internal/opschema, a function unbox<Kernel>(args) that checks the argument count
// and every argument's tag against the schema and returns its arguments as a typed struct
// (shared by the kernels whose arguments have the same names and types). The positions, names
// and types come from torch's schemas, not from each kernel: a kernel reads a.Self, a.Dim, a.Out.
// The reading is done by package unbox, shared by every kernel library, so errors name the
// argument in the same words whichever library runs a call ("argument 2 (alpha): want a Scalar
// (Int, Double or Bool), got Tensor"). The package does not import the schema tables: the
// unboxers are code, so a runtime-only binary carries no table.
//
//go:generate go run ../../internal/cmd/unboxgen -pkg optimized -o unbox_gen.go -test unbox_gen_test.go

// The package's short names for unbox's argument types, which its kernels pass around.
type (
	scalar          = unbox.Scalar
	optional[T any] = unbox.Optional[T]
	unboxFn[A any]  = unbox.Fn[A]
)
