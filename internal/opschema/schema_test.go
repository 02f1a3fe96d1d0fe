package opschema

import "testing"

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Type
	}{
		{"Tensor", Type{Base: "Tensor"}},
		{"Tensor(a!)", Type{Base: "Tensor"}},
		{"Tensor?", Type{Base: "Tensor", Optional: true}},
		{"Tensor[]", Type{Base: "Tensor", List: true}},
		{"Tensor?[]", Type{Base: "Tensor", List: true, ElemOptional: true}},
		{"int[2]", Type{Base: "int", List: true}},
		{"SymInt[]?", Type{Base: "SymInt", List: true, Optional: true}},
		{"ScalarType?", Type{Base: "ScalarType", Optional: true}},
	} {
		if got := ParseType(tc.in); got != tc.want {
			t.Errorf("ParseType(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// The tables answer by the names etgo uses: an Edge target for the functional schemas and
// the out-variant map, a kernel name for the out schemas.
func TestLookups(t *testing.T) {
	if k, ok := OutVariant("aten.add.Tensor"); !ok || k != "aten::add.out" {
		t.Errorf("OutVariant(aten.add.Tensor) = %q, %v", k, ok)
	}
	s, ok := Out("aten::add.out")
	if !ok || len(s.Args) != 4 || s.Returns != 1 {
		t.Fatalf("Out(aten::add.out) = %+v, %v", s, ok)
	}
	if a, ok := s.Arg("alpha"); !ok || a.Type != "Scalar" || !a.KwargOnly || a.Default == nil || a.Default.Kind != DefaultInt || a.Default.Int != 1 {
		t.Errorf("aten::add.out alpha = %+v", a)
	}
	if a, _ := s.Arg("out"); a == nil || !a.Out {
		t.Errorf("aten::add.out out = %+v", a)
	}
	f, ok := Functional("aten.add.Tensor")
	if !ok || len(f.Args) != 3 || f.Args[1].Type != "Tensor" {
		t.Errorf("Functional(aten.add.Tensor) = %+v, %v", f, ok)
	}
	if _, ok := Out("aten::copy_"); !ok {
		t.Error("Out(aten::copy_): the portable library's in-place kernel has no schema")
	}
}
