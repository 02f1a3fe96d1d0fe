package passes

// PrimOps maps the Python operators an exported graph applies to symbolic sizes (their .pt2
// targets) to the ExecuTorch primitive operator that runs them, as ExecuTorch's
// executorch_prim_ops_registry does. They are part of the Edge dialect: to_executorch emits each
// as a kernel call that writes an Int, Double or Bool value.
var PrimOps = map[string]string{
	"builtins.round":     "executorch_prim::round.Scalar",
	"math.ceil":          "executorch_prim::ceil.Scalar",
	"math.trunc":         "executorch_prim::trunc.Scalar",
	"_operator.sub":      "executorch_prim::sub.Scalar",
	"_operator.mul":      "executorch_prim::mul.Scalar",
	"_operator.add":      "executorch_prim::add.Scalar",
	"_operator.floordiv": "executorch_prim::floordiv.Scalar",
	"_operator.truediv":  "executorch_prim::truediv.Scalar",
	"_operator.eq":       "executorch_prim::eq.Scalar",
	"_operator.gt":       "executorch_prim::gt.Scalar",
	"_operator.lt":       "executorch_prim::lt.Scalar",
	"_operator.ge":       "executorch_prim::ge.Scalar",
	"_operator.le":       "executorch_prim::le.Scalar",
	"_operator.mod":      "executorch_prim::mod.Scalar",
	"_operator.neg":      "executorch_prim::neg.Scalar",
	"torch.sym_float":    "executorch_prim::sym_float.Scalar",
	"torch.sym_int":      "executorch_prim::sym_int.Scalar",
	"torch.sym_max":      "executorch_prim::sym_max.Scalar",
	"torch.sym_min":      "executorch_prim::sym_min.Scalar",
	"torch.sym_not":      "executorch_prim::sym_not.Scalar",
	"torch.sym_ite":      "executorch_prim::sym_ite.Scalar",
}
