package portable

import "github.com/etgo/etgo/executor"

// Generated unboxing. unbox_gen.go holds, for every kernel this package registers that has a
// schema in internal/opschema, a function unbox<Kernel>(args) that checks the argument count
// and every argument's tag against the schema and returns its arguments as a typed struct
// (shared by the kernels whose arguments have the same names and types). The positions, names
// and types come from torch's schemas, not from each kernel: a kernel reads a.Self, a.Dim, a.Out.
// The reading is done by the accessors of args.go, so errors name the argument as they always
// did ("argument 2 (alpha): want a Scalar (Int, Double or Bool), got Tensor") and the values
// mean what they always meant. The package does not import the schema tables: the unboxers
// are code, so a runtime-only binary carries no table.
//
//go:generate go run ../../internal/cmd/unboxgen -o unbox_gen.go -test unbox_gen_test.go

// optional is the value of an optional schema argument (T? in the schema): OK is false for None.
type optional[T any] struct {
	Val T
	OK  bool
}

// unboxer reads a call's arguments in schema order and keeps the first error (the count check
// comes first), so that a generated unboxer is one line per argument and fails as the
// hand-written reads did, on the first argument that is wrong.
type unboxer struct {
	args []*executor.EValue
	err  error
}

// newUnboxer starts reading a call of n arguments (the schema's, then the return slot).
func newUnboxer(args []*executor.EValue, n int) *unboxer {
	return &unboxer{args: args, err: wantArgs(args, n)}
}

func read[T any](u *unboxer, get func([]*executor.EValue, int, string) (T, error), i int, name string) T {
	var v T
	if u.err == nil {
		v, u.err = get(u.args, i, name)
	}
	return v
}

func readOpt[T any](u *unboxer, get func([]*executor.EValue, int, string) (T, bool, error), i int, name string) optional[T] {
	var o optional[T]
	if u.err == nil {
		o.Val, o.OK, u.err = get(u.args, i, name)
	}
	return o
}

func (u *unboxer) tensor(i int, name string) *executor.Tensor { return read(u, tensorArg, i, name) }
func (u *unboxer) optTensor(i int, name string) *executor.Tensor {
	return read(u, optTensorArg, i, name)
}
func (u *unboxer) tensorList(i int, name string) []*executor.Tensor {
	return read(u, tensorListArg, i, name)
}
func (u *unboxer) optTensorList(i int, name string) []*executor.Tensor {
	return read(u, optTensorListArg, i, name)
}
func (u *unboxer) int(i int, name string) int64              { return read(u, intArg, i, name) }
func (u *unboxer) optInt(i int, name string) optional[int64] { return readOpt(u, optIntArg, i, name) }
func (u *unboxer) intList(i int, name string) []int64        { return read(u, intListArg, i, name) }
func (u *unboxer) optIntList(i int, name string) optional[[]int64] {
	return readOpt(u, optIntListArg, i, name)
}
func (u *unboxer) double(i int, name string) float64 { return read(u, doubleArg, i, name) }
func (u *unboxer) optDouble(i int, name string) optional[float64] {
	return readOpt(u, optDoubleArg, i, name)
}
func (u *unboxer) optDoubleList(i int, name string) optional[[]float64] {
	return readOpt(u, optDoubleListArg, i, name)
}
func (u *unboxer) bool(i int, name string) bool              { return read(u, boolArg, i, name) }
func (u *unboxer) optBool(i int, name string) optional[bool] { return readOpt(u, optBoolArg, i, name) }
func (u *unboxer) boolList(i int, name string) []bool        { return read(u, boolListArg, i, name) }
func (u *unboxer) scalar(i int, name string) scalar          { return read(u, scalarArg, i, name) }
func (u *unboxer) optScalar(i int, name string) optional[scalar] {
	return readOpt(u, optScalarArg, i, name)
}
func (u *unboxer) string(i int, name string) string { return read(u, stringArg, i, name) }
func (u *unboxer) optString(i int, name string) optional[string] {
	return readOpt(u, optStringArg, i, name)
}

// unboxFn is a generated unboxer: what a helper serving several kernels of one argument shape
// takes, so that each kernel is still checked against its own schema.
type unboxFn[A any] func([]*executor.EValue) (A, error)
