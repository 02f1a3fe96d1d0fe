package unbox

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAccessors(t *testing.T) {
	ten := &executor.Tensor{}
	args := []*executor.EValue{
		{Tag: executor.TagTensor, Tensor: ten},
		{Tag: executor.TagInt, Int: 3},
		{Tag: executor.TagDouble, Double: 2.5},
		{Tag: executor.TagBool, Bool: true},
		{Tag: executor.TagNone},
		nil,
	}
	if got, err := TensorArg(args, 0, "self"); err != nil || got != ten {
		t.Errorf("TensorArg = %v, %v", got, err)
	}
	if got, err := DoubleArg(args, 1, "alpha"); err != nil || got != 3 {
		t.Errorf("DoubleArg of an Int = %v, %v; want 3 (an Int is a Double here)", got, err)
	}
	if s, err := ScalarArg(args, 2, "other"); err != nil || s.F != 2.5 || s.I != 2 || !s.IsFloat || s.IsBool {
		t.Errorf("ScalarArg of a Double = %+v, %v", s, err)
	}
	if s, err := ScalarArg(args, 3, "other"); err != nil || s.F != 1 || s.I != 1 || s.IsFloat || !s.IsBool {
		t.Errorf("ScalarArg of a Bool = %+v, %v", s, err)
	}
	if _, ok, err := OptIntArg(args, 4, "dim"); ok || err != nil {
		t.Errorf("OptIntArg of None = %v, %v; want not present, no error", ok, err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(IntArg(args, 0, "dim")), "argument 0 (dim): want Int, got Tensor"},
		{second(ScalarArg(args, 0, "alpha")), "argument 0 (alpha): want a Scalar (Int, Double or Bool), got Tensor"},
		{second(TensorArg(args, 5, "out")), "argument 5 (out): missing (the call has 6 arguments)"},
		{second(TensorArg(args, 9, "out")), "argument 9 (out): missing (the call has 6 arguments)"},
		{second(NormDim(2, 2, 1, "dim")), "argument 1 (dim): dimension 2 out of range for rank 2"},
		{Count(args, 4), "6 arguments, the schema takes 4 (with the return slot)"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || !errors.Is(c.err, executor.ErrInvalidArgument) {
			t.Errorf("error %v; want an ErrInvalidArgument saying %q", c.err, c.want)
		}
	}
	if d, err := NormDim(-1, 0, 1, "dim"); err != nil || d != 0 {
		t.Errorf("NormDim(-1) of a scalar = %d, %v; want 0", d, err)
	}
}

func second[T any](_ T, err error) error { return err }

// The Reader keeps the first error and reads nothing after it.
func TestReaderKeepsFirstError(t *testing.T) {
	args := []*executor.EValue{{Tag: executor.TagDouble, Double: 1}, {Tag: executor.TagInt, Int: 7}, {Tag: executor.TagNone}}
	u := NewReader(args, 3)
	if got := u.Int(0, "dim"); got != 0 || u.Err() == nil || !strings.Contains(u.Err().Error(), "argument 0 (dim)") {
		t.Fatalf("Int(0) = %d, err %v; want the argument 0 error", got, u.Err())
	}
	if got := u.Int(1, "n"); got != 0 || !strings.Contains(u.Err().Error(), "argument 0 (dim)") {
		t.Errorf("after an error, Int(1) = %d, err %v; want nothing read and the first error kept", got, u.Err())
	}
	u = NewReader(args, 3)
	if o := u.OptInt(1, "n"); !o.OK || o.Val != 7 || u.Err() != nil {
		t.Errorf("OptInt(1) = %+v, %v", o, u.Err())
	}
	if o := u.OptScalar(2, "s"); o.OK || u.Err() != nil {
		t.Errorf("OptScalar(None) = %+v, %v", o, u.Err())
	}
	if u := NewReader(args, 2); u.Err() == nil {
		t.Error("NewReader with the wrong count: no error")
	}
}
