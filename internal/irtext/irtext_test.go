package irtext

import (
	"errors"
	"testing"

	"github.com/etgo/etgo/ir"
)

// TestInputKinds: each input statement gives the signature kind the partitioners' constant
// rules read (a weight may be a parameter, a buffer or a lifted constant).
func TestInputKinds(t *testing.T) {
	g, err := Parse("in x f32[2]\nparam w f32[2]\nbuffer m f32[2]\nconst c f32[2]\nsym s0")
	if err != nil {
		t.Fatal(err)
	}
	want := []ir.InputKind{ir.UserInput, ir.Parameter, ir.Buffer, ir.TensorConstant, ir.UserInput}
	for i, in := range g.Inputs {
		if in.Kind != want[i] {
			t.Errorf("input %d (%s) is kind %d, want %d", i, in.Value.Name, in.Kind, want[i])
		}
	}
}

// TestErrorLine: a bad statement is reported by its line, so that a test file embedding a
// graph can point at it.
func TestErrorLine(t *testing.T) {
	_, err := ParseLines([]string{"in x f32[2]", "", "y = aten.relu.default(self=nope) -> f32[2]"})
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Text != "y = aten.relu.default(self=nope) -> f32[2]" {
		t.Fatalf("got %v, want an *Error on line 3", err)
	}
}

// TestFloatList: scale factors and other float lists are read as floats; a list mixing ints
// and floats is refused rather than silently split.
func TestFloatList(t *testing.T) {
	g, err := Parse("in x f32[1,1,2,2]\nu = aten.upsample_bilinear2d.vec(input=x, output_size=none, align_corners=false, scale_factors=[2.0,1.5]) -> f32[1,1,4,3]\nout u")
	if err != nil {
		t.Fatal(err)
	}
	a := g.Nodes[0].Arg("scale_factors")
	if a == nil || a.Kind != ir.ArgFloats || len(a.Floats) != 2 || a.Floats[1] != 1.5 || a.Values != nil {
		t.Errorf("scale_factors = %+v, want the floats [2 1.5]", a)
	}
	if _, err := Parse("in x f32[2]\ny = aten.foo.default(self=x, v=[1, 2.0]) -> f32[2]"); err == nil {
		t.Error("a list of an int and a float was accepted")
	}
}
