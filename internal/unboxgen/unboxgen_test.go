package unboxgen

import (
	"strings"
	"testing"
)

func TestKernelIdent(t *testing.T) {
	for _, tc := range []struct{ kernel, want string }{
		{"aten::add.out", "AddOut"},
		{"aten::add.Scalar_out", "AddScalarOut"},
		{"aten::_softmax.out", "SoftmaxOut"},
		{"aten::copy_", "CopyInplace"},
		{"aten::index_put_", "IndexPutInplace"},
		{"dim_order_ops::_to_dim_order_copy.out", "ToDimOrderCopyOut"},
		{"aten::bitwise_left_shift.Tensor_Scalar_out", "BitwiseLeftShiftTensorScalarOut"},
	} {
		if got := kernelIdent(tc.kernel); got != tc.want {
			t.Errorf("kernelIdent(%s) = %s, want %s", tc.kernel, got, tc.want)
		}
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		typ, method string // method "" when the type has no unboxing
	}{
		{"Tensor", "Tensor"}, {"Tensor?", "OptTensor"}, {"Tensor[]", "TensorList"}, {"Tensor?[]", "OptTensorList"},
		{"int", "Int"}, {"SymInt", "Int"}, {"ScalarType?", "OptInt"}, {"MemoryFormat?", "OptInt"},
		{"int[2]", "IntList"}, {"SymInt[]", "IntList"}, {"int[1]?", "OptIntList"},
		{"float", "Double"}, {"float?", "OptDouble"}, {"float[]?", "OptDoubleList"},
		{"bool", "Bool"}, {"bool?", "OptBool"}, {"bool[3]", "BoolList"},
		{"Scalar", "Scalar"}, {"Scalar?", "OptScalar"}, {"str", "String"}, {"str?", "OptString"},
		{"Generator?", ""}, {"Tensor[]?", ""}, {"int?[]", ""}, {"float[]", ""},
	} {
		c, err := classOf(tc.typ)
		switch {
		case tc.method == "" && err == nil:
			t.Errorf("classOf(%s) = %s, want an error", tc.typ, c.method)
		case tc.method != "" && (err != nil || c.method != tc.method):
			t.Errorf("classOf(%s) = %s, %v; want %s", tc.typ, c.method, err, tc.method)
		}
	}
}

// Generate refuses what it cannot name or unbox instead of writing something wrong.
func TestGenerateRefuses(t *testing.T) {
	for _, tc := range []struct {
		names []string
		err   string
	}{
		{[]string{"aten::no_such_op.out"}, "no schema for kernel aten::no_such_op.out"},
	} {
		if _, err := Generate("portable", tc.names); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Generate(%v) = %v, want an error containing %q", tc.names, err, tc.err)
		}
	}
}

// Kernels whose arguments have the same names and types share one struct; names that clash
// are told apart by the arguments' classes.
func TestShapes(t *testing.T) {
	kernels, shapes, err := plan([]string{"aten::abs.out", "aten::neg.out", "aten::mul.out", "aten::mul.Scalar_out"})
	if err != nil {
		t.Fatal(err)
	}
	if kernels[0].shape != kernels[1].shape || kernels[0].shape.name != "selfOutArgs" {
		t.Errorf("abs and neg: %s and %s, want one selfOutArgs", kernels[0].shape.name, kernels[1].shape.name)
	}
	var names []string
	for _, s := range shapes {
		names = append(names, s.name)
	}
	if got, want := strings.Join(names, " "), "selfOtherScalarOutArgs selfOtherTensorOutArgs selfOutArgs"; got != want {
		t.Errorf("shapes %s, want %s", got, want)
	}
}
