package passes

import (
	"testing"

	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
)

func TestScalarToTensor(t *testing.T) {
	for _, tc := range []struct {
		name, graph, want string
		dtype             ir.DType
		bytes             int
	}{
		{"float operand becomes a float32 constant", `
in x f32[4]
y = aten.mul.Tensor(self=x, other=0.5) -> f32[4]
out y`, "y: aten.mul.Tensor(self=x other=_lifted_tensor_constant0)\n| y", ir.Float32, 4},
		{"int operand becomes an int64 constant", `
in x f32[4]
y = aten.div.Tensor_mode(self=x, other=2) -> f32[4]
out y`, "y: aten.div.Tensor_mode(self=x other=_lifted_tensor_constant0)\n| y", ir.Int64, 8},
		{"Scalar overloads and tensor operands are left alone", `
in x f32[4]
y = aten.mul.Scalar(self=x, other=0.5) -> f32[4]
z = aten.add.Tensor(self=y, other=x) -> f32[4]
out z`, "y: aten.mul.Scalar(self=x other=0.5)\nz: aten.add.Tensor(self=y other=x)\n| z", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.MustParse(tc.graph)
			if _, err := (ScalarToTensor{}).Run(g); err != nil {
				t.Fatal(err)
			}
			if got := show(g); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			c := g.Constants["_lifted_tensor_constant0"]
			if tc.bytes == 0 {
				if c != nil {
					t.Error("a constant was lifted")
				}
				return
			}
			if c == nil || c.Meta.DType != tc.dtype || len(c.Data) != tc.bytes || len(c.Meta.Sizes) != 0 {
				t.Fatalf("lifted constant %+v", c)
			}
			if g.Inputs[0].Kind != ir.TensorConstant || g.Inputs[0].Target != "_lifted_tensor_constant0" {
				t.Errorf("inputs %+v: the constant must come first, as a tensor constant", g.Inputs)
			}
		})
	}
}
