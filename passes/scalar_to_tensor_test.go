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
		{"int operand becomes an int64 constant, converted to the float operand's type", `
in x f32[4]
y = aten.div.Tensor_mode(self=x, other=2) -> f32[4]
out y`, "_lifted_tensor_constant0_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant0 dtype=6 dim_order=[])\n" +
			"y: aten.div.Tensor_mode(self=x other=_lifted_tensor_constant0_to)\n| y", ir.Int64, 8},
		{"an int tensor times a float is computed in float32", `
in i i64[4]
y = aten.mul.Tensor(self=i, other=2.5) -> f32[4]
out y`, "i_to: dim_order_ops._to_dim_order_copy.default(self=i dtype=6 dim_order=[0])\ny: aten.mul.Tensor(self=i_to other=_lifted_tensor_constant0)\n| y", ir.Float32, 4},
		{"int plus int stays int; true division of ints is float", `
in i i64[4]
a = aten.add.Tensor(self=i, other=3) -> i64[4]
d = aten.div.Tensor(self=a, other=2) -> f32[4]
out d`, "a: aten.add.Tensor(self=i other=_lifted_tensor_constant0)\n" +
			"a_to: dim_order_ops._to_dim_order_copy.default(self=a dtype=6 dim_order=[0])\n" +
			"_lifted_tensor_constant1_to: dim_order_ops._to_dim_order_copy.default(self=_lifted_tensor_constant1 dtype=6 dim_order=[])\n" +
			"d: aten.div.Tensor(self=a_to other=_lifted_tensor_constant1_to)\n| d", ir.Int64, 8},
		{"mixed tensor operands are promoted too", `
in x f32[4]
in i i32[4]
y = aten.sub.Tensor(self=i, other=x) -> f32[4]
out y`, "i_to: dim_order_ops._to_dim_order_copy.default(self=i dtype=6 dim_order=[0])\ny: aten.sub.Tensor(self=i_to other=x)\n| y", 0, 0},
		{"a symbolic size becomes an int32 scalar_tensor, then the float operand's type", `
sym s0
in x f32[4]
y = aten.add.Tensor(self=x, other=$s0) -> f32[4]
out y`, "scalar_tensor: aten.scalar_tensor.default(s=$s0 dtype=3)\n" +
			"scalar_tensor_to: dim_order_ops._to_dim_order_copy.default(self=scalar_tensor dtype=6 dim_order=[])\n" +
			"y: aten.add.Tensor(self=x other=scalar_tensor_to)\n| y", 0, 0},
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
			if g.Inputs[0].Kind != ir.Buffer || !g.Inputs[0].Persistent || g.Inputs[0].Target != "_lifted_tensor_constant0" {
				t.Errorf("inputs %+v: the constant must come first, as a persistent buffer (lift_constant_tensor_pass)", g.Inputs)
			}
		})
	}
}
