package unbox

import "github.com/etgo/etgo/executor"

// Optional is the value of an optional schema argument (T? in the schema): OK is false for None.
type Optional[T any] struct {
	Val T
	OK  bool
}

// Reader reads a call's arguments in schema order and keeps the first error (the count check
// comes first), so that a generated unboxer is one line per argument and fails on the first
// argument that is wrong.
type Reader struct {
	args []*executor.EValue
	err  error
}

// NewReader starts reading a call of n arguments (the schema's, then the return slot).
func NewReader(args []*executor.EValue, n int) *Reader {
	return &Reader{args: args, err: Count(args, n)}
}

// Err is the first error met, or nil.
func (u *Reader) Err() error { return u.err }

func read[T any](u *Reader, get func([]*executor.EValue, int, string) (T, error), i int, name string) T {
	var v T
	if u.err == nil {
		v, u.err = get(u.args, i, name)
	}
	return v
}

func readOpt[T any](u *Reader, get func([]*executor.EValue, int, string) (T, bool, error), i int, name string) Optional[T] {
	var o Optional[T]
	if u.err == nil {
		o.Val, o.OK, u.err = get(u.args, i, name)
	}
	return o
}

func (u *Reader) Tensor(i int, name string) *executor.Tensor { return read(u, TensorArg, i, name) }
func (u *Reader) OptTensor(i int, name string) *executor.Tensor {
	return read(u, OptTensorArg, i, name)
}
func (u *Reader) TensorList(i int, name string) []*executor.Tensor {
	return read(u, TensorListArg, i, name)
}
func (u *Reader) OptTensorList(i int, name string) []*executor.Tensor {
	return read(u, OptTensorListArg, i, name)
}
func (u *Reader) Int(i int, name string) int64              { return read(u, IntArg, i, name) }
func (u *Reader) OptInt(i int, name string) Optional[int64] { return readOpt(u, OptIntArg, i, name) }
func (u *Reader) IntList(i int, name string) []int64        { return read(u, IntListArg, i, name) }
func (u *Reader) OptIntList(i int, name string) Optional[[]int64] {
	return readOpt(u, OptIntListArg, i, name)
}
func (u *Reader) Double(i int, name string) float64 { return read(u, DoubleArg, i, name) }
func (u *Reader) OptDouble(i int, name string) Optional[float64] {
	return readOpt(u, OptDoubleArg, i, name)
}
func (u *Reader) OptDoubleList(i int, name string) Optional[[]float64] {
	return readOpt(u, OptDoubleListArg, i, name)
}
func (u *Reader) Bool(i int, name string) bool              { return read(u, BoolArg, i, name) }
func (u *Reader) OptBool(i int, name string) Optional[bool] { return readOpt(u, OptBoolArg, i, name) }
func (u *Reader) BoolList(i int, name string) []bool        { return read(u, BoolListArg, i, name) }
func (u *Reader) Scalar(i int, name string) Scalar          { return read(u, ScalarArg, i, name) }
func (u *Reader) OptScalar(i int, name string) Optional[Scalar] {
	return readOpt(u, OptScalarArg, i, name)
}
func (u *Reader) String(i int, name string) string { return read(u, StringArg, i, name) }
func (u *Reader) OptString(i int, name string) Optional[string] {
	return readOpt(u, OptStringArg, i, name)
}

// Fn is a generated unboxer: what a helper serving several kernels of one argument shape takes,
// so that each kernel is still checked against its own schema.
type Fn[A any] func([]*executor.EValue) (A, error)
