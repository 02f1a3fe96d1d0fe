package vkrt

// Matrix products (shaders/matmul.comp): out[b, m, n] = sum_k a[b, m, k] * w(b, k, n) + bias[n].

// matmul dispatches one product; w is read at b*wB + k*wK + n*wN.
func (b *builder) matmul(ra, rw, rbias int, hasBias bool, batch, m, n, k, aB, wB, wK, wN int, ro int) error {
	bias := 0
	if hasBias {
		bias = 1
	} else {
		rbias = rw
	}
	params := u32s(batch*m*n, m, n, k, aB, wB, wK, wN, bias)
	return b.prog.dispatch("matmul", batch*m*n, params, ra, rw, rbias, ro)
}

// linearOp is linear(input, weight [N, K], bias?, out): input [..., K] -> [..., N].
func linearOp(b *builder, args []int32) error {
	ra, sa, err := b.in(args, 0)
	if err != nil {
		return err
	}
	rw, sw, err := b.in(args, 1)
	if err != nil {
		return err
	}
	if len(sa) < 1 || len(sw) != 2 || sw[1] != sa[len(sa)-1] {
		return b.errorf("linear of %v by a weight of %v", sa, sw)
	}
	rbias, hasBias := 0, !b.isNull(args, 2)
	if hasBias {
		var sb []int
		if rbias, sb, err = b.in(args, 2); err != nil {
			return err
		}
		if numel(sb) != sw[0] {
			return b.errorf("linear bias of %v for %d outputs", sb, sw[0])
		}
	}
	k, n := sw[1], sw[0]
	m := numel(sa) / max(k, 1)
	dims := append(append([]int{}, sa[:len(sa)-1]...), n)
	ro, err := b.out(args, 3, dims)
	if err != nil {
		return err
	}
	return b.matmul(ra, rw, rbias, hasBias, 1, m, n, k, 0, 0, 1, k, ro)
}

// mmOp is mm(a [M, K], b [K, N], out).
func mmOp(b *builder, args []int32) error { return b.mm(args, -1, 0, 1, 2) }

// addmmOp is addmm(bias, a, b, beta, alpha, out) with beta = alpha = 1 and a bias of N
// elements, as linear lowers to it.
func addmmOp(b *builder, args []int32) error {
	for _, i := range []int{3, 4} {
		if v, ok, err := b.scalarArg(args, i); err != nil {
			return err
		} else if ok && v != 1 {
			return b.errorf("addmm with beta or alpha %g (etgo runs 1)", v)
		}
	}
	return b.mm(args, 0, 1, 2, 5)
}

func (b *builder) mm(args []int32, biasArg, aArg, wArg, outArg int) error {
	ra, sa, err := b.in(args, aArg)
	if err != nil {
		return err
	}
	rw, sw, err := b.in(args, wArg)
	if err != nil {
		return err
	}
	if len(sa) != 2 || len(sw) != 2 || sa[1] != sw[0] {
		return b.errorf("mm of %v by %v", sa, sw)
	}
	m, k, n := sa[0], sa[1], sw[1]
	rbias, hasBias := 0, biasArg >= 0
	if hasBias {
		var sb []int
		if rbias, sb, err = b.in(args, biasArg); err != nil {
			return err
		}
		if numel(sb) != n || (len(sb) == 2 && sb[0] != 1) {
			return b.errorf("addmm bias of %v for a [%d, %d] product (etgo adds a row of N)", sb, m, n)
		}
	}
	ro, err := b.out(args, outArg, []int{m, n})
	if err != nil {
		return err
	}
	return b.matmul(ra, rw, rbias, hasBias, 1, m, n, k, 0, 0, n, 1, ro)
}

// bmmOp is bmm(a [B, M, K], b [B, K, N], out).
func bmmOp(b *builder, args []int32) error {
	ra, sa, err := b.in(args, 0)
	if err != nil {
		return err
	}
	rw, sw, err := b.in(args, 1)
	if err != nil {
		return err
	}
	if len(sa) != 3 || len(sw) != 3 || sa[0] != sw[0] || sa[2] != sw[1] {
		return b.errorf("bmm of %v by %v", sa, sw)
	}
	bt, m, k, n := sa[0], sa[1], sa[2], sw[2]
	ro, err := b.out(args, 2, []int{bt, m, n})
	if err != nil {
		return err
	}
	return b.matmul(ra, rw, 0, false, bt, m, n, k, m*k, k*n, n, 1, ro)
}
