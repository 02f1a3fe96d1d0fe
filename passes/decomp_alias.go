package passes

import "github.com/etgo/etgo/ir"

// Aliases: operators whose composite implementation calls another operator with the same
// arguments (torch.divide is div, torch.special.expit is sigmoid, …). The rule retargets the
// node and renames the arguments whose names differ.

type alias struct {
	to      string
	renames map[string]string
}

var aliases = map[string]alias{
	"aten.absolute.default":             {to: "aten.abs.default"},
	"aten.arccos.default":               {to: "aten.acos.default"},
	"aten.arccosh.default":              {to: "aten.acosh.default"},
	"aten.arcsin.default":               {to: "aten.asin.default"},
	"aten.arcsinh.default":              {to: "aten.asinh.default"},
	"aten.arctan.default":               {to: "aten.atan.default"},
	"aten.arctanh.default":              {to: "aten.atanh.default"},
	"aten.arctan2.default":              {to: "aten.atan2.default"},
	"aten.clip.default":                 {to: "aten.clamp.default"},
	"aten.clip.Tensor":                  {to: "aten.clamp.Tensor"},
	"aten.concat.default":               {to: "aten.cat.default"},
	"aten.concatenate.default":          {to: "aten.cat.default"},
	"aten.divide.Tensor":                {to: "aten.div.Tensor"},
	"aten.divide.Scalar":                {to: "aten.div.Scalar"},
	"aten.divide.Tensor_mode":           {to: "aten.div.Tensor_mode"},
	"aten.divide.Scalar_mode":           {to: "aten.div.Scalar_mode"},
	"aten.true_divide.Tensor":           {to: "aten.div.Tensor"},
	"aten.true_divide.Scalar":           {to: "aten.div.Scalar"},
	"aten.multiply.Tensor":              {to: "aten.mul.Tensor"},
	"aten.multiply.Scalar":              {to: "aten.mul.Scalar"},
	"aten.subtract.Tensor":              {to: "aten.sub.Tensor"},
	"aten.subtract.Scalar":              {to: "aten.sub.Scalar"},
	"aten.greater.Tensor":               {to: "aten.gt.Tensor"},
	"aten.greater.Scalar":               {to: "aten.gt.Scalar"},
	"aten.greater_equal.Tensor":         {to: "aten.ge.Tensor"},
	"aten.greater_equal.Scalar":         {to: "aten.ge.Scalar"},
	"aten.less.Tensor":                  {to: "aten.lt.Tensor"},
	"aten.less.Scalar":                  {to: "aten.lt.Scalar"},
	"aten.less_equal.Tensor":            {to: "aten.le.Tensor"},
	"aten.less_equal.Scalar":            {to: "aten.le.Scalar"},
	"aten.not_equal.Tensor":             {to: "aten.ne.Tensor"},
	"aten.not_equal.Scalar":             {to: "aten.ne.Scalar"},
	"aten.negative.default":             {to: "aten.neg.default"},
	"aten.fix.default":                  {to: "aten.trunc.default"},
	"aten.special_expit.default":        {to: "aten.sigmoid.default"},
	"aten.special_erf.default":          {to: "aten.erf.default"},
	"aten.special_erfc.default":         {to: "aten.erfc.default"},
	"aten.special_erfinv.default":       {to: "aten.erfinv.default"},
	"aten.special_exp2.default":         {to: "aten.exp2.default"},
	"aten.special_expm1.default":        {to: "aten.expm1.default"},
	"aten.special_log1p.default":        {to: "aten.log1p.default"},
	"aten.special_round.default":        {to: "aten.round.decimals"},
	"aten.special_sinc.default":         {to: "aten.sinc.default"},
	"aten.special_digamma.default":      {to: "aten.digamma.default"},
	"aten.special_psi.default":          {to: "aten.digamma.default"},
	"aten.special_gammaln.default":      {to: "aten.lgamma.default"},
	"aten.special_i0.default":           {to: "aten.i0.default"},
	"aten.special_logit.default":        {to: "aten.logit.default"},
	"aten.special_xlogy.default":        {to: "aten.xlogy.Tensor"},
	"aten.special_logsumexp.default":    {to: "aten.logsumexp.default"},
	"aten.special_log_softmax.default":  {to: "aten.log_softmax.int"},
	"aten.special_softmax.default":      {to: "aten.softmax.int"},
	"aten.linalg_matmul.default":        {to: "aten.matmul.default"},
	"aten.swapaxes.default":             {to: "aten.transpose.int", renames: map[string]string{"axis0": "dim0", "axis1": "dim1"}},
	"aten.swapdims.default":             {to: "aten.transpose.int"},
	"aten.moveaxis.int":                 {to: "aten.movedim.int"},
	"aten.__and__.Tensor":               {to: "aten.bitwise_and.Tensor"},
	"aten.__or__.Tensor":                {to: "aten.bitwise_or.Tensor"},
	"aten.__xor__.Tensor":               {to: "aten.bitwise_xor.Tensor"},
	"aten.__and__.Scalar":               {to: "aten.bitwise_and.Scalar"},
	"aten.__or__.Scalar":                {to: "aten.bitwise_or.Scalar"},
	"aten.__xor__.Scalar":               {to: "aten.bitwise_xor.Scalar"},
	"aten.max.other":                    {to: "aten.maximum.default"},
	"aten.min.other":                    {to: "aten.minimum.default"},
	"aten.floor_divide.Scalar":          {to: "aten.div.Scalar_mode"},
	"aten.special_multigammaln.default": {to: "aten.mvlgamma.default"},
	"aten.row_stack.default":            {to: "aten.vstack.default"},
	"aten.orgqr.default":                {to: "aten.linalg_householder_product.default"},
}

func init() {
	for from, a := range aliases {
		registerRule(retargetRule(a), from)
	}
}

// retargetRule rewrites the node in place: the results are the alias's own.
func retargetRule(a alias) rule {
	return func(_ *Builder, n *ir.Node) error {
		n.Target = a.to
		for i := range n.Args {
			if to, ok := a.renames[n.Args[i].Name]; ok {
				n.Args[i].Name = to
			}
		}
		if a.to == "aten.div.Scalar_mode" {
			n.Args = append(n.Args, S("rounding_mode", "floor"))
		}
		return nil
	}
}
