package passes

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Linear algebra outside core ATen — products, contractions, einsum — as torch's references
// or ATen's composite C++ compute them. Where ATen passes two freshly built operands to one
// call (at::dot(t1.flatten(), t2.flatten())), the compiler that built torch evaluated the
// arguments right to left, and the traced graph holds them in that order; the rules do too.

func init() {
	registerRule(vdotRule, "aten.vdot.default")
	registerRule(vecdotRule, "aten.linalg_vecdot.default")
	registerRule(baddbmmRule, "aten.baddbmm.default")
	registerRule(kronRule, "aten.kron.default")
	registerRule(outerRule, "aten.outer.default")
	registerRule(innerRule, "aten.inner.default")
	registerRule(tensordotRule, "aten.tensordot.default")
	registerRule(multiDot, "aten.linalg_multi_dot.default")
	registerRule(matrixPower, "aten.linalg_matrix_power.default")
	registerRule(einsumRule, "aten.einsum.default")
}

// vdot(x, y) of real tensors is dot(x, y) (torch._refs).
func vdotRule(b *Builder, n *ir.Node) error {
	return b.Replace(b.Call("aten.dot.default", T("self", self(b, n)), T("tensor", n.TensorArg("other"))))
}

// linalg_vecdot(x, y, dim) of real tensors: two vectors are vdot; otherwise (x * y).sum(dim).
func vecdotRule(b *Builder, n *ir.Node) error {
	x, y := n.TensorArg("x"), n.TensorArg("y")
	if x == nil || y == nil || x.Meta == nil || y.Meta == nil {
		return fmt.Errorf("linalg_vecdot: x or y is not a tensor")
	}
	if !x.Meta.DType.IsFloat() {
		return fmt.Errorf("linalg_vecdot of %s tensors", x.Meta.DType)
	}
	if len(x.Meta.Sizes) == 1 && len(y.Meta.Sizes) == 1 {
		return b.Replace(b.Call("aten.vdot.default", T("self", x), T("other", y)))
	}
	p := b.Call("aten.mul.Tensor", T("self", x), T("other", y))
	return b.Replace(b.Call("aten.sum.dim_IntList", T("self", p), Is("dim", n.IntArg("dim", -1))))
}

// isOne reports a number argument equal to 1 (or absent).
func isOne(a *ir.Arg) bool {
	return a == nil || a.Kind == ir.ArgNone || (a.Kind == ir.ArgInt && a.Int == 1) || (a.Kind == ir.ArgFloat && a.Float == 1)
}

func isZero(a *ir.Arg) bool {
	return a != nil && ((a.Kind == ir.ArgInt && a.Int == 0) || (a.Kind == ir.ArgFloat && a.Float == 0))
}

// baddbmm(x, b1, b2, beta, alpha) = beta·x + alpha·bmm(b1, b2), each product only when its
// factor is not 1 and x dropped for beta 0 (torch._decomp); half-precision inputs compute in
// float32 (pw_cast_for_opmath), integer ones with integral factors.
func baddbmmRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	b1, b2 := n.TensorArg("batch1"), n.TensorArg("batch2")
	if b.Err() != nil || b1 == nil || b2 == nil {
		return fmt.Errorf("baddbmm: an operand is not a tensor")
	}
	dtype := x.Meta.DType
	compute := dtype
	if dtype == ir.Float16 || dtype == ir.BFloat16 {
		compute = ir.Float32
	}
	x, b1, b2 = convertTo(b, x, compute), convertTo(b, b1, compute), convertTo(b, b2, compute)
	factor := func(name string) *ir.Arg {
		a := n.Arg(name)
		if a != nil && !dtype.IsFloat() && a.Kind == ir.ArgFloat {
			c := I(name, int64(math.Trunc(a.Float)))
			return &c
		}
		return a
	}
	beta, alpha := factor("beta"), factor("alpha")
	r := b.Call("aten.bmm.default", T("self", b1), T("mat2", b2))
	if !isOne(alpha) {
		r = b.Call("aten.mul.Tensor", T("self", r), Renamed(*alpha, "other"))
	}
	if !isZero(beta) {
		if !isOne(beta) {
			x = b.Call("aten.mul.Tensor", T("self", x), Renamed(*beta, "other"))
		}
		r = b.Call("aten.add.Tensor", T("self", x), T("other", r))
	}
	return b.Replace(convertTo(b, r, dtype))
}

// kron(a, b) (ATen): a viewed with a unit dim after each of its dims, b with one before each,
// both padded to the same rank with leading ones; their product viewed as the result.
func kronRule(b *Builder, n *ir.Node) error {
	x, y := self(b, n), n.TensorArg("other")
	if err := staticSizes(x, y); err != nil {
		return fmt.Errorf("kron: %w", err)
	}
	xs, ys := sizesOf(x.Meta), sizesOf(y.Meta)
	rank := max(len(xs), len(ys))
	padX, padY := rank-len(xs), rank-len(ys)
	ax, by := make([]int64, 2*rank), make([]int64, 2*rank)
	out := make([]int64, rank)
	for i := 0; i < rank; i++ {
		ax[2*i], ax[2*i+1], by[2*i], by[2*i+1] = 1, 1, 1, 1
		if i >= padX {
			ax[2*i] = xs[i-padX]
		}
		if i >= padY {
			by[2*i+1] = ys[i-padY]
		}
		out[i] = ax[2*i] * by[2*i+1]
	}
	vx := b.Call("aten._unsafe_view.default", T("self", x), Is("size", ax...))
	vy := b.Call("aten._unsafe_view.default", T("self", y), Is("size", by...))
	m := b.Call("aten.mul.Tensor", T("self", vx), T("other", vy))
	return b.Replace(b.Call("aten._unsafe_view.default", T("self", m), Is("size", out...)))
}

// outer(x, v) = x.reshape(len(x), 1) * v (ATen).
func outerRule(b *Builder, n *ir.Node) error {
	x, v := self(b, n), n.TensorArg("vec2")
	if err := staticSizes(x, v); err != nil || len(x.Meta.Sizes) != 1 {
		return fmt.Errorf("outer of a non-vector or symbolic operand")
	}
	c := b.Call("aten.reshape.default", T("self", x), Is("shape", x.Meta.Sizes[0].Size, 1))
	return b.Replace(b.Call("aten.mul.Tensor", T("self", c), T("other", v)))
}

// inner(x, y): with a 0-d operand their product, else tensordot over the last dims (ATen).
func innerRule(b *Builder, n *ir.Node) error {
	x, y := self(b, n), n.TensorArg("other")
	if err := staticSizes(x, y); err != nil {
		return fmt.Errorf("inner: %w", err)
	}
	if len(x.Meta.Sizes) == 0 || len(y.Meta.Sizes) == 0 {
		return b.Replace(b.Call("aten.mul.Tensor", T("self", x), T("other", y)))
	}
	out, err := tensordotOf(b, x, y, []int64{-1}, []int64{-1})
	if err != nil {
		return err
	}
	return b.Replace(out)
}

func tensordotRule(b *Builder, n *ir.Node) error {
	x, y := self(b, n), n.TensorArg("other")
	if err := staticSizes(x, y); err != nil {
		return fmt.Errorf("tensordot: %w", err)
	}
	d1, d2 := n.IntsArg("dims_self", nil), n.IntsArg("dims_other", nil)
	if d1 == nil || d2 == nil {
		return fmt.Errorf("tensordot without dim lists")
	}
	out, err := tensordotOf(b, x, y, d1, d2)
	if err != nil {
		return err
	}
	return b.Replace(out)
}

// tensordotOf is ATen's tensordot: contracted dims of size 1 on one side are summed on the
// other right away; each operand is permuted (free dims then contracted ones, as given, for
// the first; contracted then free for the second). A full contraction is a dot of the
// flattened operands when both are contiguous, else a sum of the squeezed product; otherwise
// the operands are reshaped to matrices for mm. The result is reshaped to the free dims.
func tensordotOf(b *Builder, x, y *ir.Value, dims1, dims2 []int64) (*ir.Value, error) {
	if len(dims1) != len(dims2) {
		return nil, fmt.Errorf("tensordot over %d and %d dims", len(dims1), len(dims2))
	}
	if x.Meta.DType != y.Meta.DType {
		return nil, fmt.Errorf("tensordot of %s and %s", x.Meta.DType, y.Meta.DType)
	}
	r1, r2 := len(x.Meta.Sizes), len(y.Meta.Sizes)
	c1, c2 := map[int]bool{}, map[int]bool{}
	csize := int64(1)
	t1, t2 := x, y
	for i := range dims1 {
		a, err := normDim(dims1[i], r1)
		if err != nil {
			return nil, err
		}
		c, err := normDim(dims2[i], r2)
		if err != nil {
			return nil, err
		}
		c1[a], c2[c] = true, true
		s1, s2 := x.Meta.Sizes[a].Size, y.Meta.Sizes[c].Size
		switch {
		case s2 == 1:
			t1 = b.Call("aten.sum.dim_IntList", T("self", t1), Is("dim", dims1[i]), Bo("keepdim", true), Dt("dtype", t1.Meta.DType))
		case s1 == 1:
			t2 = b.Call("aten.sum.dim_IntList", T("self", t2), Is("dim", dims2[i]), Bo("keepdim", true), Dt("dtype", t2.Meta.DType))
		case s1 != s2:
			return nil, fmt.Errorf("tensordot: contracted dims of sizes %d and %d", s1, s2)
		default:
			csize *= s1
		}
	}
	if b.Err() != nil {
		return nil, b.Err()
	}
	var p1, p2, rsizes []int64
	size1, size2 := int64(1), int64(1)
	for i := 0; i < r1; i++ {
		if !c1[i] {
			p1 = append(p1, int64(i))
			size1 *= t1.Meta.Sizes[i].Size
			rsizes = append(rsizes, t1.Meta.Sizes[i].Size)
		}
	}
	p1 = append(p1, dims1...)
	p2 = append(p2, dims2...)
	for i := 0; i < r2; i++ {
		if !c2[i] {
			p2 = append(p2, int64(i))
			size2 *= t2.Meta.Sizes[i].Size
			rsizes = append(rsizes, t2.Meta.Sizes[i].Size)
		}
	}
	if rsizes == nil {
		rsizes = []int64{}
	}
	var prod *ir.Value
	if size1 != 1 || size2 != 1 {
		t1 = b.Call("aten.permute.default", T("self", t1), Is("dims", p1...))
		t1 = b.Call("aten.reshape.default", T("self", t1), Is("shape", size1, csize))
		t2 = b.Call("aten.permute.default", T("self", t2), Is("dims", p2...))
		t2 = b.Call("aten.reshape.default", T("self", t2), Is("shape", csize, size2))
		prod = b.Call("aten.mm.default", T("self", t1), T("mat2", t2))
	} else {
		t1 = b.Call("aten.permute.default", T("self", t1), Is("dims", p1...))
		t2 = b.Call("aten.permute.default", T("self", t2), Is("dims", p2...))
		if b.Err() != nil {
			return nil, b.Err()
		}
		if hasLayout(b.st, t1, memoryFormatContiguous) && hasLayout(b.st, t2, memoryFormatContiguous) {
			f2 := flattenAll(b, t2)
			f1 := flattenAll(b, t1)
			prod = b.Call("aten.dot.default", T("self", f1), T("tensor", f2))
		} else {
			s2 := squeezeAll(b, t2)
			s1 := squeezeAll(b, t1)
			m := b.Call("aten.mul.Tensor", T("self", s1), T("other", s2))
			prod = b.Call("aten.sum.dim_IntList", T("self", m), Is("dim"), Dt("dtype", t1.Meta.DType))
		}
	}
	return b.Call("aten.reshape.default", T("self", prod), Is("shape", rsizes...)), nil
}

// squeezeAll is Tensor.squeeze(): squeeze.dims over every dim.
func squeezeAll(b *Builder, x *ir.Value) *ir.Value {
	return b.Call("aten.squeeze.dims", T("self", x), Is("dim", identity(len(x.Meta.Sizes))...))
}

// linalg_multi_dot (ATen): a vector first operand is a row, a vector last one a column; two
// matrices are one mm, three are multiplied in the cheaper order, more in the optimal chain
// order (Cormen's dynamic programme); the product is viewed to the result's shape.
func multiDot(b *Builder, n *ir.Node) error {
	ts, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	k := len(ts)
	if k < 2 {
		return fmt.Errorf("linalg_multi_dot of %d tensors", k)
	}
	ms := slices.Clone(ts)
	var shape []int64
	switch len(ts[0].Meta.Sizes) {
	case 1:
		ms[0] = b.Call("aten.unsqueeze.default", T("self", ts[0]), I("dim", 0))
	case 2:
		shape = append(shape, ts[0].Meta.Sizes[0].Size)
	default:
		return fmt.Errorf("linalg_multi_dot: a %d-d first tensor", len(ts[0].Meta.Sizes))
	}
	switch len(ts[k-1].Meta.Sizes) {
	case 1:
		ms[k-1] = b.Call("aten.unsqueeze.default", T("self", ts[k-1]), I("dim", -1))
	case 2:
		shape = append(shape, ts[k-1].Meta.Sizes[1].Size)
	default:
		return fmt.Errorf("linalg_multi_dot: a %d-d last tensor", len(ts[k-1].Meta.Sizes))
	}
	for _, t := range ts[1 : k-1] {
		if len(t.Meta.Sizes) != 2 {
			return fmt.Errorf("linalg_multi_dot: a %d-d middle tensor", len(t.Meta.Sizes))
		}
	}
	if b.Err() != nil {
		return b.Err()
	}
	mm := func(x, y *ir.Value) *ir.Value { return b.Call("aten.mm.default", T("self", x), T("mat2", y)) }
	dim := func(i, d int) int64 { return ms[i].Meta.Sizes[d].Size }
	var prod *ir.Value
	switch k {
	case 2:
		prod = mm(ms[0], ms[1])
	case 3:
		a, bb, c, d := dim(0, 0), dim(1, 0), dim(2, 0), dim(2, 1)
		if a*c*(bb+d) > bb*d*(a+c) {
			prod = mm(ms[0], mm(ms[1], ms[2]))
		} else {
			prod = mm(mm(ms[0], ms[1]), ms[2])
		}
	default:
		p := make([]int64, k+1)
		for i := range ms {
			p[i] = dim(i, 0)
		}
		p[k] = dim(k-1, 1)
		m := make([][]int64, k)
		s := make([][]int, k)
		for i := range m {
			m[i], s[i] = make([]int64, k), make([]int, k)
		}
		for l := 1; l < k; l++ {
			for i := 0; i < k-l; i++ {
				j := i + l
				m[i][j] = math.MaxInt64
				for c := i; c < j; c++ {
					if q := m[i][c] + m[c+1][j] + p[i]*p[c+1]*p[j+1]; q < m[i][j] {
						m[i][j], s[i][j] = q, c
					}
				}
			}
		}
		var chain func(i, j int) *ir.Value
		chain = func(i, j int) *ir.Value {
			if i == j {
				return ms[i]
			}
			// at::mm(chain(i, s), chain(s+1, j)): the right operand is built first.
			right := chain(s[i][j]+1, j)
			return mm(chain(i, s[i][j]), right)
		}
		prod = chain(0, k-1)
	}
	if shape == nil {
		shape = []int64{}
	}
	return b.Replace(b.Call("aten.view.default", T("self", prod), Is("size", shape...)))
}

// linalg_matrix_power(a, n) (ATen): n = 0 is a contiguous copy overwritten with the identity
// (eye, which torch's table builds from aranges of the smallest integer type); n = 1 a copy;
// n = 2 and 3 direct products; larger powers square-and-multiply over n's bits. A negative
// power needs linalg_inv, which is not core ATen.
func matrixPower(b *Builder, n *ir.Node) error {
	a, err := staticSelf(b, n)
	if err != nil {
		return err
	}
	r := len(a.Meta.Sizes)
	if r < 2 || a.Meta.Sizes[r-1].Size != a.Meta.Sizes[r-2].Size {
		return fmt.Errorf("linalg_matrix_power of a non-square %s", a.Meta)
	}
	k := n.IntArg("n", 0)
	matmul := func(x, y *ir.Value) *ir.Value { return b.Call("aten.matmul.default", T("self", x), T("other", y)) }
	switch {
	case k < 0:
		return fmt.Errorf("linalg_matrix_power to a negative power needs linalg_inv, which is not core ATen")
	case k == 0:
		out := cloneContiguous(b, a)
		return b.Replace(b.Call("aten.copy.default", T("self", out), T("src", eyeOf(b, a.Meta.Sizes[r-2].Size, a.Meta.DType))))
	case k == 1:
		return b.Replace(cloneContiguous(b, a))
	case k == 2:
		return b.Replace(matmul(a, a))
	case k == 3:
		return b.Replace(matmul(matmul(a, a), a))
	}
	var z, res *ir.Value
	for k > 0 {
		bit := k % 2
		k /= 2
		if z == nil {
			z = a
		} else {
			z = matmul(z, z)
		}
		if bit == 1 {
			if res == nil {
				res = z
			} else {
				res = matmul(res, z)
			}
		}
	}
	return b.Replace(res)
}

// eyeOf is eye(k, dtype) (torch._refs.eye): arange(k)[:, None] == arange(k) in the smallest unsigned or
// 32-bit integer type that holds k, converted to dtype.
func eyeOf(b *Builder, k int64, dtype ir.DType) *ir.Value {
	rdt := ir.Int64
	switch {
	case k <= math.MaxUint8:
		rdt = ir.Uint8
	case k <= math.MaxUint16:
		rdt = ir.Uint16
	case k <= math.MaxInt32:
		rdt = ir.Int32
	}
	rn := arangeSpan(b, 0, k, &rdt)
	rm := arangeSpan(b, 0, k, &rdt)
	cond := b.Call("aten.eq.Tensor", T("self", b.Call("aten.unsqueeze.default", T("self", rn), I("dim", -1))), T("other", rm))
	return b.Call("aten._to_copy.default", T("self", cond), Dt("dtype", dtype))
}

// einsum labels: A–Z are 0–25, a–z 26–51; the ellipsis is 52.
const (
	einsumLetters  = 26
	einsumLabels   = 2 * einsumLetters
	einsumEllipsis = einsumLabels
)

func einsumLabel(c byte) (int, bool) {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A'), true
	case c >= 'a' && c <= 'z':
		return int(c-'a') + einsumLetters, true
	}
	return 0, false
}

// einsum(equation, operands, path) as ATen computes it: each operand's dims are permuted (and
// unsqueezed, diagonals taken for repeated labels) to the output labels then the contracted
// ones; pairs are contracted left to right (or along path) by sumproduct_pair, summing dims
// as soon as only one operand still has them; the contracted dims are dropped at the end.
func einsumRule(b *Builder, n *ir.Node) error {
	eq := n.Arg("equation")
	if eq == nil || eq.Kind != ir.ArgString {
		return fmt.Errorf("einsum without an equation")
	}
	operands, err := tensorList(n, "tensors")
	if err != nil {
		return err
	}
	var path []int64
	if a := n.Arg("path"); a != nil && a.Kind == ir.ArgInts {
		path = a.Ints
		want := 2 * (len(operands) - 1)
		if len(operands) == 1 {
			want = 1
		}
		if len(path) != want {
			return fmt.Errorf("einsum: a path of %d entries for %d operands", len(path), len(operands))
		}
	}
	out, err := einsumOf(b, eq.Str, operands, path)
	if err != nil {
		return fmt.Errorf("einsum %q: %w", eq.Str, err)
	}
	return b.Replace(out)
}

func einsumOf(b *Builder, equation string, operands []*ir.Value, path []int64) (*ir.Value, error) {
	numOps := len(operands)
	lhs, rhs, explicit := strings.Cut(equation, "->")
	opLabels := make([][]int, numOps)
	cur := 0
	ellInInput := false
	for i := 0; i < len(lhs); i++ {
		switch c := lhs[i]; c {
		case ' ':
		case '.':
			if ellInInput || i+2 >= len(lhs) || lhs[i+1] != '.' || lhs[i+2] != '.' {
				return nil, fmt.Errorf("a malformed ellipsis")
			}
			i += 2
			opLabels[cur] = append(opLabels[cur], einsumEllipsis)
			ellInInput = true
		case ',':
			cur++
			if cur >= numOps {
				return nil, fmt.Errorf("fewer operands than the equation names")
			}
			ellInInput = false
		default:
			l, ok := einsumLabel(c)
			if !ok {
				return nil, fmt.Errorf("invalid subscript %q", c)
			}
			opLabels[cur] = append(opLabels[cur], l)
		}
	}
	if cur != numOps-1 {
		return nil, fmt.Errorf("more operands than the equation names")
	}
	labelCount := make([]int, einsumLabels)
	ellNumDim := 0
	for i, op := range operands {
		nlabels, hasEll := len(opLabels[i]), false
		ndims := len(op.Meta.Sizes)
		for _, l := range opLabels[i] {
			if l == einsumEllipsis {
				nlabels--
				hasEll = true
				ellNumDim = max(ellNumDim, ndims-nlabels)
			} else {
				labelCount[l]++
			}
		}
		if (hasEll && nlabels > ndims) || (!hasEll && nlabels != ndims) {
			return nil, fmt.Errorf("operand %d has %d dims for %d subscripts", i, ndims, nlabels)
		}
	}
	permIndex := make([]int, einsumLabels)
	for i := range permIndex {
		permIndex[i] = -1
	}
	perm, ellIndex, ellInOutput := 0, 0, false
	if !explicit {
		perm = ellNumDim
		ellInOutput = true
		for l := 0; l < einsumLabels; l++ {
			if labelCount[l] == 1 {
				permIndex[l] = perm
				perm++
			}
		}
	} else {
		for i := 0; i < len(rhs); i++ {
			switch c := rhs[i]; c {
			case ' ':
			case '.':
				if ellInOutput || i+2 >= len(rhs) || rhs[i+1] != '.' || rhs[i+2] != '.' {
					return nil, fmt.Errorf("a malformed ellipsis in the output")
				}
				i += 2
				ellIndex = perm
				perm += ellNumDim
				ellInOutput = true
			default:
				l, ok := einsumLabel(c)
				if !ok || labelCount[l] == 0 || permIndex[l] != -1 {
					return nil, fmt.Errorf("output subscript %q is invalid, repeated or not in the inputs", c)
				}
				permIndex[l] = perm
				perm++
			}
		}
	}
	outNumDim := perm
	if !ellInOutput {
		ellIndex = perm
		perm += ellNumDim
	}
	for l := 0; l < einsumLabels; l++ {
		if labelCount[l] > 0 && permIndex[l] == -1 {
			permIndex[l] = perm
			perm++
		}
	}
	labelSize := repeat(1, einsumLabels)
	ellSizes := repeat(1, ellNumDim)
	dimCounts := make([]int, perm)
	var ops []*ir.Value
	for i, op := range operands {
		permutation := make([]int64, perm)
		for j := range permutation {
			permutation[j] = -1
		}
		dim := 0
		for _, s := range opLabels[i] {
			size := func(d int) int64 { return op.Meta.Sizes[d].Size }
			switch {
			case s == einsumEllipsis:
				ndim := len(operands[i].Meta.Sizes) - (len(opLabels[i]) - 1)
				for j := ellNumDim - ndim; j < ellNumDim; j++ {
					if size(dim) != 1 {
						if ellSizes[j] != 1 && ellSizes[j] != size(dim) {
							return nil, fmt.Errorf("ellipsis dims of operand %d do not broadcast", i)
						}
						ellSizes[j] = size(dim)
						dimCounts[ellIndex+j]++
					}
					permutation[ellIndex+j] = int64(dim)
					dim++
				}
			case permutation[permIndex[s]] == -1:
				if size(dim) != 1 {
					if labelSize[s] != 1 && labelSize[s] != size(dim) {
						return nil, fmt.Errorf("subscript sizes %d and %d do not broadcast", labelSize[s], size(dim))
					}
					labelSize[s] = size(dim)
					dimCounts[permIndex[s]]++
				}
				permutation[permIndex[s]] = int64(dim)
				dim++
			default:
				prev := int(permutation[permIndex[s]])
				if size(dim) != size(prev) {
					return nil, fmt.Errorf("a repeated subscript of sizes %d and %d", size(prev), size(dim))
				}
				op = b.Call("aten.diagonal.default", T("self", op), I("offset", 0), I("dim1", int64(prev)), I("dim2", int64(dim)))
				if b.Err() != nil {
					return nil, b.Err()
				}
				op = b.Call("aten.permute.default", T("self", op), Is("dims", movedimPerm(len(op.Meta.Sizes), len(op.Meta.Sizes)-1, prev)...))
				if b.Err() != nil {
					return nil, b.Err()
				}
			}
		}
		for j := range permutation {
			if permutation[j] == -1 {
				op = b.Call("aten.unsqueeze.default", T("self", op), I("dim", int64(dim)))
				permutation[j] = int64(dim)
				dim++
			}
		}
		ops = append(ops, b.Call("aten.permute.default", T("self", op), Is("dims", permutation...)))
		if b.Err() != nil {
			return nil, b.Err()
		}
	}
	pi := 0
	for len(ops) > 1 {
		i, j := 0, 1
		if path != nil {
			i, j = int(path[pi]), int(path[pi+1])
			pi += 2
			if j < i {
				i, j = j, i
			}
			if i == j || i < 0 || j >= len(ops) {
				return nil, fmt.Errorf("an invalid contraction path")
			}
		}
		a, c := ops[i], ops[j]
		ops = slices.Delete(ops, j, j+1)
		ops = slices.Delete(ops, i, i+1)
		var sumDims, aSum, cSum []int64
		for d := outNumDim; d < perm; d++ {
			as, cs := a.Meta.Sizes[d].Size, c.Meta.Sizes[d].Size
			switch {
			case as != 1 && cs != 1:
				dimCounts[d]--
				if dimCounts[d] == 1 {
					sumDims = append(sumDims, int64(d))
					dimCounts[d] = 0
				}
			case dimCounts[d] == 1 && as != 1:
				aSum = append(aSum, int64(d))
				dimCounts[d] = 0
			case dimCounts[d] == 1 && cs != 1:
				cSum = append(cSum, int64(d))
				dimCounts[d] = 0
			}
		}
		if aSum != nil {
			a = b.Call("aten.sum.dim_IntList", T("self", a), Is("dim", aSum...), Bo("keepdim", true))
		}
		if cSum != nil {
			c = b.Call("aten.sum.dim_IntList", T("self", c), Is("dim", cSum...), Bo("keepdim", true))
		}
		if b.Err() != nil {
			return nil, b.Err()
		}
		p := sumproductPair(b, a, c, sumDims)
		if b.Err() != nil {
			return nil, b.Err()
		}
		if path != nil {
			ops = append(ops, p)
		} else {
			ops = append([]*ir.Value{p}, ops...)
		}
	}
	res := ops[0]
	if perm > outNumDim {
		if numOps > 1 {
			sizes := sizesOf(res.Meta)[:outNumDim]
			return b.Call("aten.view.default", T("self", res), Is("size", sizes...)), nil
		}
		var dims []int64
		for d := outNumDim; d < perm; d++ {
			dims = append(dims, int64(d))
		}
		return b.Call("aten.sum.dim_IntList", T("self", res), Is("dim", dims...)), nil
	}
	return res, nil
}

// sumproductPair is ATen's sumproduct_pair with keepdim: (left * right).sum(sumDims, keepdim)
// by permuting the dims into batch (both), left-only, summed and right-only groups, reshaping
// to 3-d for bmm, and viewing and permuting the product back.
func sumproductPair(b *Builder, left, right *ir.Value, sumDims []int64) *ir.Value {
	if len(sumDims) == 0 {
		return b.Call("aten.mul.Tensor", T("self", left), T("other", right))
	}
	dim := len(left.Meta.Sizes)
	summed := map[int]bool{}
	for _, d := range sumDims {
		summed[int(d)] = true
	}
	var lro, lo, ro []int64
	lroSize, loSize, roSize, sumSize := int64(1), int64(1), int64(1), int64(1)
	for i := 0; i < dim; i++ {
		ls, rs := left.Meta.Sizes[i].Size, right.Meta.Sizes[i].Size
		sl, sr := ls != 1, rs != 1
		switch {
		case summed[i] && sl && sr:
			sumSize *= ls
		case summed[i] && sl:
			left = b.Call("aten.sum.dim_IntList", T("self", left), Is("dim", int64(i)), Bo("keepdim", true))
		case summed[i] && sr:
			right = b.Call("aten.sum.dim_IntList", T("self", right), Is("dim", int64(i)), Bo("keepdim", true))
		case summed[i]:
		case sl && sr:
			lro = append(lro, int64(i))
			lroSize *= ls
		case sl:
			lo = append(lo, int64(i))
			loSize *= ls
		default:
			ro = append(ro, int64(i))
			roSize *= rs
		}
	}
	if b.Err() != nil {
		return nil
	}
	var outSize []int64
	for _, d := range lro {
		outSize = append(outSize, left.Meta.Sizes[d].Size)
	}
	for _, d := range lo {
		outSize = append(outSize, left.Meta.Sizes[d].Size)
	}
	for range sumDims {
		outSize = append(outSize, 1)
	}
	for _, d := range ro {
		outSize = append(outSize, right.Meta.Sizes[d].Size)
	}
	cat := func(parts ...[]int64) []int64 {
		var out []int64
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	lperm := cat(lro, lo, sumDims, ro)
	rperm := cat(lro, sumDims, ro, lo)
	operm := make([]int64, len(outSize))
	k := int64(0)
	for _, group := range [][]int64{lro, lo, sumDims, ro} {
		for _, d := range group {
			operm[d] = k
			k++
		}
	}
	l := b.Call("aten.permute.default", T("self", left), Is("dims", lperm...))
	l = b.Call("aten.reshape.default", T("self", l), Is("shape", lroSize, loSize, sumSize))
	r := b.Call("aten.permute.default", T("self", right), Is("dims", rperm...))
	r = b.Call("aten.reshape.default", T("self", r), Is("shape", lroSize, sumSize, roSize))
	res := b.Call("aten.bmm.default", T("self", l), T("mat2", r))
	res = b.Call("aten.view.default", T("self", res), Is("size", outSize...))
	return b.Call("aten.permute.default", T("self", res), Is("dims", operm...))
}
