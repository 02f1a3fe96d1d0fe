package ir

import "testing"

// The expected types are torch 2.15's (torch.promote_types, torch.result_type).
func TestPromoteComplex(t *testing.T) {
	for _, c := range []struct{ a, b, want DType }{
		{Float64, ComplexFloat, ComplexDouble}, {ComplexFloat, Float64, ComplexDouble},
		{ComplexHalf, BFloat16, ComplexFloat}, {ComplexHalf, Float16, ComplexHalf}, {ComplexHalf, Float32, ComplexFloat},
		{ComplexFloat, ComplexDouble, ComplexDouble}, {ComplexHalf, ComplexFloat, ComplexFloat},
		{Int64, ComplexHalf, ComplexHalf}, {Uint8, ComplexFloat, ComplexFloat}, {Bool, ComplexDouble, ComplexDouble},
		{BFloat16, ComplexFloat, ComplexFloat}, {Float32, Float64, Float64}, {Float16, BFloat16, Float32},
	} {
		if got := PromoteTypes(c.a, c.b); got != c.want {
			t.Errorf("PromoteTypes(%s, %s) = %s, torch gives %s", c.a, c.b, got, c.want)
		}
	}
	tensor := func(d DType) Operand { return Operand{DType: d} }
	zero := func(d DType) Operand { return Operand{DType: d, Rank0: true} }
	for _, c := range []struct {
		ops  []Operand
		want DType
	}{
		{[]Operand{tensor(Float64), zero(ComplexFloat)}, ComplexDouble},
		{[]Operand{tensor(Float16), zero(ComplexFloat)}, ComplexHalf},
		{[]Operand{tensor(Int32), zero(ComplexDouble)}, ComplexDouble},
		{[]Operand{tensor(ComplexHalf), zero(Float64)}, ComplexHalf},
		{[]Operand{tensor(ComplexFloat), zero(Int64)}, ComplexFloat},
		{[]Operand{tensor(Bool), zero(ComplexHalf)}, ComplexHalf},
		{[]Operand{tensor(ComplexHalf), ScalarOperand(ArgFloat)}, ComplexHalf},
		{[]Operand{tensor(BFloat16), zero(ComplexFloat)}, bComplex32},
	} {
		if got := ResultType(c.ops...); got != c.want {
			t.Errorf("ResultType(%v) = %s, torch gives %s", c.ops, got, c.want)
		}
	}
	if ComplexFloat.Size() != 8 || ComplexDouble.String() != "complex128" || ComplexHalf.ToReal() != Float16 || ComplexFloat.IsFloat() {
		t.Error("complex dtype metadata is wrong")
	}
}
