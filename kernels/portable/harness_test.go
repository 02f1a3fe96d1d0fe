package portable

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Test harness: kernel tests build arguments from Go values and call kernels by name, as a
// program's KernelCall would.

// none is the None argument.
var none = struct{}{}

// ev turns a Go value into an EValue: *executor.Tensor, int, int64, float64, bool, string,
// []int64 (IntList), []float64, []bool, []*executor.Tensor (TensorList), none.
func ev(t testing.TB, v any) *executor.EValue {
	t.Helper()
	switch v := v.(type) {
	case *executor.Tensor:
		return &executor.EValue{Tag: executor.TagTensor, Tensor: v}
	case int:
		return &executor.EValue{Tag: executor.TagInt, Int: int64(v)}
	case int64:
		return &executor.EValue{Tag: executor.TagInt, Int: v}
	case float64:
		return &executor.EValue{Tag: executor.TagDouble, Double: v}
	case bool:
		return &executor.EValue{Tag: executor.TagBool, Bool: v}
	case string:
		return &executor.EValue{Tag: executor.TagString, Str: v}
	case []int64:
		l := &executor.EValue{Tag: executor.TagIntList}
		for _, x := range v {
			l.IntRefs = append(l.IntRefs, &executor.EValue{Tag: executor.TagInt, Int: x})
		}
		return l
	case []float64:
		return &executor.EValue{Tag: executor.TagDoubleList, Doubles: v}
	case []bool:
		return &executor.EValue{Tag: executor.TagBoolList, Bools: v}
	case []*executor.Tensor:
		l := &executor.EValue{Tag: executor.TagTensorList}
		for _, x := range v {
			l.TensorRefs = append(l.TensorRefs, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
		}
		return l
	case struct{}:
		return &executor.EValue{Tag: executor.TagNone}
	}
	t.Fatalf("ev: unsupported %T", v)
	return nil
}

// call runs the named kernel on args (Go values, see ev).
func call(t testing.TB, name string, args ...any) error {
	t.Helper()
	var k *executor.Kernel
	for i := range kernels {
		if kernels[i].Name == name {
			k = &kernels[i]
		}
	}
	if k == nil {
		t.Fatalf("no kernel %s", name)
	}
	evs := make([]*executor.EValue, len(args))
	for i, a := range args {
		evs[i] = ev(t, a)
	}
	return k.Fn(&executor.KernelContext{Operator: name}, evs)
}

// tensor builds a contiguous tensor from values.
func tensor[T executor.Element](t testing.TB, v []T, sizes ...int) *executor.Tensor {
	t.Helper()
	x, err := executor.FromSlice(v, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// empty builds a static zero tensor to use as out: kernels must produce exactly its sizes.
func empty(t testing.TB, dtype executor.ScalarType, sizes ...int) *executor.Tensor {
	t.Helper()
	x, err := executor.NewTensor(dtype, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// dynamic builds a bounded dynamic out: kernels resize it within its upper bounds.
func dynamic(t testing.TB, dtype executor.ScalarType, upper ...int) *executor.Tensor {
	t.Helper()
	x, err := executor.NewDynamicTensor(dtype, upper...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// wantValues checks a tensor's sizes and values (floats within tol, NaN matching NaN).
func wantValues[T executor.Element](t testing.TB, got *executor.Tensor, sizes []int, want []T, tol float64) {
	t.Helper()
	if !slices.Equal(got.Sizes(), sizes) {
		t.Fatalf("sizes %v, want %v", got.Sizes(), sizes)
	}
	v, err := executor.Values[T](got)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		g, w := float64(toF(v[i])), float64(toF(want[i]))
		if math.IsNaN(w) && math.IsNaN(g) {
			continue
		}
		if math.Abs(g-w) > tol {
			t.Fatalf("element %d = %v, want %v (all: %v)", i, v[i], want[i], v)
		}
	}
}

func toF[T executor.Element](x T) float64 {
	switch v := any(x).(type) {
	case bool:
		if v {
			return 1
		}
		return 0
	case float32:
		return float64(v)
	case float64:
		return v
	case int8:
		return float64(v)
	case int16:
		return float64(v)
	case int32:
		return float64(v)
	case int64:
		return float64(v)
	case uint8:
		return float64(v)
	case uint16:
		return float64(v)
	case uint32:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return math.NaN()
}

// wantErr checks that err wraps ErrInvalidArgument and mentions text.
func wantErr(t testing.TB, err error, text string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", text)
	}
	if !errors.Is(err, executor.ErrInvalidArgument) {
		t.Errorf("error %q does not wrap ErrInvalidArgument", err)
	}
	if !strings.Contains(err.Error(), text) {
		t.Errorf("error %q does not mention %q", err, text)
	}
}

// wantValuesAny checks sizes and values of a tensor of any type, as float64.
func wantValuesAny(t testing.TB, got *executor.Tensor, sizes []int, want []float64) {
	t.Helper()
	if !slices.Equal(got.Sizes(), sizes) {
		t.Fatalf("sizes %v, want %v", got.Sizes(), sizes)
	}
	v := loadF64(got)
	if len(v) != len(want) {
		t.Fatalf("%d values, want %d: %v", len(v), len(want), v)
	}
	for i := range want {
		if !(math.IsNaN(want[i]) && math.IsNaN(v[i])) && math.Abs(v[i]-want[i]) > 1e-6*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("element %d = %v, want %v (all: %v)", i, v[i], want[i], v)
		}
	}
}
