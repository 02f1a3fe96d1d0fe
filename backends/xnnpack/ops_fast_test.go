package xnnpack

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/internal/xnntest"
)

// TestElementwiseFastPaths runs add, multiply and hardswish on the shapes their vector paths
// take (equal shapes, a channel vector broadcast either side, tensors large enough to split
// across threads) and on ones they don't, against a direct broadcasting loop.
func TestElementwiseFastPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	rnd := func(dims []int) xnntest.Operand {
		n := 1
		for _, d := range dims {
			n *= d
		}
		o := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
		for i := range o.Data {
			o.Data[i] = float64(float32(r.NormFloat64() * 4))
		}
		return o
	}
	shapes := [][2][]int{
		{{1, 9, 7, 24}, {1, 9, 7, 24}},
		{{1, 64, 64, 16}, {1, 64, 64, 16}}, // above the parallel grain
		{{2, 5, 3, 16}, {1, 1, 1, 16}},
		{{1, 1, 1, 40}, {1, 6, 6, 40}}, // broadcast operand first
		{{3, 20}, {20}},
		{{1, 64, 64, 24}, {1, 1, 1, 24}},
		{{2, 3, 5}, {1, 3, 5}}, // inner 15, leading broadcast
		{{2, 3, 4}, {3, 1}},    // generic path
		{{4, 9}, {1, 1}},
	}
	for _, op := range []struct {
		name string
		f    func(x, y float32) float32
	}{{"XNNAdd", func(x, y float32) float32 { return x + y }}, {"XNNMultiply", func(x, y float32) float32 { return x * y }}} {
		for _, s := range shapes {
			a, b := rnd(s[0]), rnd(s[1])
			dims, err := xnngraph.BroadcastDims(a.Dims, b.Dims)
			if err != nil {
				t.Fatal(err)
			}
			out := rnd(dims)
			sa, sb := broadcastStrides(a.Dims, dims), broadcastStrides(b.Dims, dims)
			idx := make([]int, len(dims))
			for i := range out.Data {
				oa, ob := 0, 0
				for d, x := range idx {
					oa += x * sa[d]
					ob += x * sb[d]
				}
				out.Data[i] = float64(op.f(float32(a.Data[oa]), float32(b.Data[ob])))
				for d := len(idx) - 1; d >= 0; d-- {
					if idx[d]++; idx[d] < dims[d] {
						break
					}
					idx[d] = 0
				}
			}
			c := &xnntest.OpCase{Name: fmt.Sprint(op.name, s), Op: op.name, Inputs: []xnntest.Operand{a, b}, Output: out}
			for _, threads := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
			}
		}
	}
	for _, dims := range [][]int{{3, 7}, {1, 70, 70, 16}} {
		x := rnd(dims)
		out := xnntest.Operand{Dims: dims, Data: make([]float64, len(x.Data))}
		for i, v := range x.Data {
			out.Data[i] = float64(float32(v) * min(max(float32(v)+3, 0), 6) / 6)
		}
		c := &xnntest.OpCase{Name: fmt.Sprint("hardswish", dims), Op: "XNNHardswish", Inputs: []xnntest.Operand{x}, Output: out}
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
		}
	}
}

// TestFullyConnectedSplits runs fully connected layers whose rows are too few to split, so two
// threads split their column panels, and larger ones split by rows, against a direct product.
func TestFullyConnectedSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, s := range []struct{ m, in, out int }{{1, 20, 40}, {3, 7, 50}, {29, 9, 33}, {70, 5, 17}, {1, 3, 8}} {
		x := xnntest.Operand{Dims: []int{s.m, s.in}, Data: make([]float64, s.m*s.in)}
		w := xnntest.Operand{Dims: []int{s.out, s.in}, Data: make([]float64, s.out*s.in)}
		b := xnntest.Operand{Dims: []int{s.out}, Data: make([]float64, s.out)}
		for _, o := range []*xnntest.Operand{&x, &w, &b} {
			for i := range o.Data {
				o.Data[i] = float64(float32(r.NormFloat64()))
			}
		}
		y := xnntest.Operand{Dims: []int{s.m, s.out}, Data: make([]float64, s.m*s.out)}
		for i := 0; i < s.m; i++ {
			for o := 0; o < s.out; o++ {
				acc := b.Data[o]
				for k := 0; k < s.in; k++ {
					acc += x.Data[i*s.in+k] * w.Data[o*s.in+k]
				}
				y.Data[i*s.out+o] = acc
			}
		}
		c := &xnntest.OpCase{Name: fmt.Sprint("fc", s), Op: "XNNFullyConnected", Inputs: []xnntest.Operand{x, w, b}, Output: y}
		for _, threads := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
		}
	}
}

// TestPermute checks the normalised, blocked transpose against gather for every permutation of
// small rank-2 to rank-5 shapes (dimensions of 1, of 0, past the 8×8 blocks and the row chunks
// split across threads, an RGB image's planes and the column chunks that split its few rows
// across threads), for fp32 values and int8 codes.
func TestPermute(t *testing.T) {
	defer func(m int) { minParallelWork = m }(minParallelWork)
	minParallelWork = 1
	for _, in := range [][]int{{3, 40}, {2, 3, 4}, {1, 3, 37, 5}, {2, 1, 33, 3}, {1, 3, 8, 1}, {2, 3, 5, 70},
		{1, 2, 3, 17, 9}, {1, 3, 11, 13}, {1, 72, 130}, {2, 0, 3}, {1, 2, 24, 5, 7}, {9, 1, 16, 1, 24},
		{1, 3, 17, 19}, {2, 5, 300}, {1, 3, 1000}} {
		numel := 1
		for _, d := range in {
			numel *= d
		}
		src := make([]float32, numel)
		for i := range src {
			src[i] = float32(i)
		}
		var perms [][]int
		var perms0 func(p []int, used []bool)
		perms0 = func(p []int, used []bool) {
			if len(p) == len(in) {
				perms = append(perms, append([]int(nil), p...))
				return
			}
			for d := range in {
				if !used[d] {
					used[d] = true
					perms0(append(p, d), used)
					used[d] = false
				}
			}
		}
		perms0(nil, make([]bool, len(in)))
		inStride := rowMajorStrides(in)
		for _, perm := range perms {
			dims := make([]int, len(in))
			s := make([]int, len(in))
			for i, d := range perm {
				dims[i], s[i] = in[d], inStride[d]
			}
			want, got := make([]float32, numel), make([]float32, numel)
			gather(want, src, 0, s, dims)
			for _, threads := range []int{1, 2, 3} {
				clear(got)
				permute(&plan{threads: threads}, got, src, in, perm)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%v perm %v, %d threads: [%d] = %v, want %v", in, perm, threads, i, got[i], want[i])
					}
				}
			}
			src8, want8, got8 := make([]int8, numel), make([]int8, numel), make([]int8, numel)
			for i := range src8 {
				src8[i] = int8(i)
			}
			gather(want8, src8, 0, s, dims)
			permute(&plan{threads: 2}, got8, src8, in, perm)
			if !slices.Equal(got8, want8) {
				t.Fatalf("%v perm %v: int8 codes %v, want %v", in, perm, got8, want8)
			}
		}
	}
}

// TestIm2colRow compares the run-copying patch builder with the definition over random
// geometries: padding on every side, strides, dilations, groups, kernels wider than the input;
// for fp32 values and for the integer kernels' int32 patches alike.
func TestIm2colRow(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for it := 0; it < 300; it++ {
		G := 1 + r.IntN(2)
		c := &convGeom{N: 1 + r.IntN(2), H: 1 + r.IntN(9), W: 1 + r.IntN(9), G: G, GIC: 1 + r.IntN(20), KH: 1 + r.IntN(4), KW: 1 + r.IntN(4),
			sh: 1 + r.IntN(2), sw: 1 + r.IntN(3), dh: 1 + r.IntN(2), dw: 1 + r.IntN(2), pt: r.IntN(3), pl: r.IntN(3)}
		c.C = G * c.GIC
		pb, pr := r.IntN(3), r.IntN(3)
		OH, OW := outSize(c.H, c.pt, pb, c.KH, c.sh, c.dh), outSize(c.W, c.pl, pr, c.KW, c.sw, c.dw)
		if OH == 0 || OW == 0 {
			continue
		}
		c.OH, c.OW = OH, OW
		x := make([]float32, c.N*c.H*c.W*c.C)
		xi := make([]int32, len(x))
		for i := range x {
			x[i] = float32(i + 1)
			xi[i] = int32(i + 1)
		}
		K := c.KH * c.KW * c.GIC
		col, coli := make([]float32, OW*K), make([]int32, OW*K)
		for b := 0; b < c.N; b++ {
			for oh := 0; oh < OH; oh++ {
				for g := 0; g < G; g++ {
					for i := range col {
						col[i] = -7 // every entry must be written
					}
					im2colRow(col, x, b, oh, g, c, gemm.StridedCopy)
					for i := range coli {
						coli[i] = -7
					}
					im2colRow(coli, xi, b, oh, g, c, stridedCopy[int32])
					for i, v := range coli {
						if float32(v) != col[i] {
							t.Fatalf("%+v oh %d: int32 patch [%d] = %d, fp32 %v", *c, oh, i, v, col[i])
						}
					}
					for ow := 0; ow < OW; ow++ {
						for kh := 0; kh < c.KH; kh++ {
							for kw := 0; kw < c.KW; kw++ {
								for ci := 0; ci < c.GIC; ci++ {
									ih, iw := oh*c.sh-c.pt+kh*c.dh, ow*c.sw-c.pl+kw*c.dw
									want := float32(0)
									if ih >= 0 && ih < c.H && iw >= 0 && iw < c.W {
										want = x[((b*c.H+ih)*c.W+iw)*c.C+g*c.GIC+ci]
									}
									if got := col[ow*K+(kh*c.KW+kw)*c.GIC+ci]; got != want {
										t.Fatalf("%+v oh %d ow %d kh %d kw %d c %d: %v, want %v", *c, oh, ow, kh, kw, ci, got, want)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestDepthwisePaths runs depthwise convolutions through the backend (interior windows by the
// register-weights kernels, borders by the table) on small and larger images, with strides,
// asymmetric padding and 3x3/5x5 windows, against a direct loop.
func TestDepthwisePaths(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for it := 0; it < 24; it++ {
		k := []int{3, 5}[it%2]
		H, W, C := 3+r.IntN(6), 3+r.IntN(6), []int{8, 24, 5}[r.IntN(3)]
		if it%6 == 5 {
			H, W = 34, 33 // several parallel chunks
		}
		s, pt, pl, pb, pr := 1+r.IntN(2), r.IntN(k), r.IntN(k), r.IntN(k), r.IntN(k)
		OH, OW := outSize(H, pt, pb, k, s, 1), outSize(W, pl, pr, k, s, 1)
		if OH == 0 || OW == 0 {
			continue
		}
		rnd := func(dims ...int) xnntest.Operand {
			n := 1
			for _, d := range dims {
				n *= d
			}
			o := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
			for i := range o.Data {
				o.Data[i] = float64(float32(r.NormFloat64()))
			}
			return o
		}
		x, w, b := rnd(1, H, W, C), rnd(1, k, k, C), rnd(C)
		y := xnntest.Operand{Dims: []int{1, OH, OW, C}, Data: make([]float64, OH*OW*C)}
		for oh := 0; oh < OH; oh++ {
			for ow := 0; ow < OW; ow++ {
				for c := 0; c < C; c++ {
					acc := b.Data[c]
					for i := 0; i < k; i++ {
						for j := 0; j < k; j++ {
							ih, iw := oh*s-pt+i, ow*s-pl+j
							if ih >= 0 && ih < H && iw >= 0 && iw < W {
								acc += x.Data[(ih*W+iw)*C+c] * w.Data[(i*k+j)*C+c]
							}
						}
					}
					y.Data[(oh*OW+ow)*C+c] = acc
				}
			}
		}
		u := func(v int) uint32 { return uint32(v) }
		c := &xnntest.OpCase{Name: fmt.Sprint("dw", k, H, W, C, s, pt, pl, pb, pr), Op: "XNNDepthwiseConv2d", Inputs: []xnntest.Operand{x, w, b}, Output: y}
		c.Conv = &struct {
			Pad, Kernel, Stride, Dilation, Adjustment []uint32
			Groups, GroupIn, GroupOut                 uint32
		}{Pad: []uint32{u(pt), u(pr), u(pb), u(pl)}, Kernel: []uint32{u(k), u(k)}, Stride: []uint32{u(s), u(s)}, Dilation: []uint32{1, 1},
			Groups: u(C), GroupIn: 1, GroupOut: 1}
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
		}
	}
}

// TestCopyBox holds the run-copying box copy of slice and constant pad to the element-wise
// definitions over random ranks, sizes (1s and 0s included), offsets and paddings.
func TestCopyBox(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 400; it++ {
		rank := r.IntN(5)
		in := make([]int, rank)
		numel := 1
		for d := range in {
			in[d] = r.IntN(5)
			if r.IntN(3) == 0 {
				in[d] = 1
			}
			numel *= in[d]
		}
		src := make([]float32, numel)
		for i := range src {
			src[i] = float32(i + 1)
		}
		// A slice: offsets and sizes inside in.
		off, size := make([]int, rank), make([]int, rank)
		base, istr := 0, rowMajorStrides(in)
		for d := range in {
			off[d] = r.IntN(in[d] + 1)
			size[d] = r.IntN(in[d] - off[d] + 1)
			base += off[d] * istr[d]
		}
		n := 1
		for _, s := range size {
			n *= s
		}
		want, got := make([]float32, n), make([]float32, n)
		if n > 0 {
			gather(want, src, base, istr, size)
		}
		copyBox(got, 0, rowMajorStrides(size), src, base, istr, size)
		if !slices.Equal(got, want) {
			t.Fatalf("slice of %v at %v size %v: %v, want %v", in, off, size, got, want)
		}
		// A pad: in placed at pre inside in+pre+post.
		out := make([]int, rank)
		pre := make([]int, rank)
		m := 1
		for d := range in {
			pre[d] = r.IntN(3)
			out[d] = in[d] + pre[d] + r.IntN(3)
			m *= out[d]
		}
		ostr := rowMajorStrides(out)
		want, got = make([]float32, m), make([]float32, m)
		for i := 0; i < numel; i++ {
			o, rest := 0, i
			for d := rank - 1; d >= 0; d-- {
				o += (rest%in[d] + pre[d]) * ostr[d]
				rest /= in[d]
			}
			want[o] = src[i]
		}
		o := 0
		for d := range pre {
			o += pre[d] * ostr[d]
		}
		if numel > 0 {
			copyBox(got, o, ostr, src, 0, istr, in)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pad of %v by %v into %v: %v, want %v", in, pre, out, got, want)
		}
	}
}

// TestGroupedConv runs grouped convolutions that take gemm.GroupConv (groups of up to 32 output
// channels: 8-channel blocks, partial blocks, padding, strides, dilation) against the
// definition, at 1 and 2 threads.
func TestGroupedConv(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 24; it++ {
		G, gin, gout := 2+r.IntN(4), 1+r.IntN(10), []int{8, 3, 13, 32}[it%4]
		H, W, k, s, d := 2+r.IntN(8), 2+r.IntN(8), 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		pt, pl, pb, pr := r.IntN(2), r.IntN(2), r.IntN(2), r.IntN(2)
		OH, OW := outSize(H, pt, pb, k, s, d), outSize(W, pl, pr, k, s, d)
		if OH == 0 || OW == 0 {
			continue
		}
		C, OC := G*gin, G*gout
		rnd := func(dims ...int) xnntest.Operand {
			n := 1
			for _, d := range dims {
				n *= d
			}
			o := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
			for i := range o.Data {
				o.Data[i] = float64(float32(r.NormFloat64()))
			}
			return o
		}
		x, w, b := rnd(1, H, W, C), rnd(OC, k, k, gin), rnd(OC)
		y := xnntest.Operand{Dims: []int{1, OH, OW, OC}, Data: make([]float64, OH*OW*OC)}
		for oh := 0; oh < OH; oh++ {
			for ow := 0; ow < OW; ow++ {
				for o := 0; o < OC; o++ {
					g := o / gout
					acc := b.Data[o]
					for i := 0; i < k; i++ {
						for j := 0; j < k; j++ {
							ih, iw := oh*s-pt+i*d, ow*s-pl+j*d
							if ih < 0 || ih >= H || iw < 0 || iw >= W {
								continue
							}
							for c := 0; c < gin; c++ {
								acc += x.Data[(ih*W+iw)*C+g*gin+c] * w.Data[((o*k+i)*k+j)*gin+c]
							}
						}
					}
					y.Data[(oh*OW+ow)*OC+o] = acc
				}
			}
		}
		u := func(v int) uint32 { return uint32(v) }
		c := &xnntest.OpCase{Name: fmt.Sprint("gconv", G, gin, gout, H, W, k, s, d, pt, pl, pb, pr), Op: "XNNConv2d", Inputs: []xnntest.Operand{x, w, b}, Output: y}
		c.Conv = &struct {
			Pad, Kernel, Stride, Dilation, Adjustment []uint32
			Groups, GroupIn, GroupOut                 uint32
		}{Pad: []uint32{u(pt), u(pr), u(pb), u(pl)}, Kernel: []uint32{u(k), u(k)}, Stride: []uint32{u(s), u(s)}, Dilation: []uint32{u(d), u(d)},
			Groups: u(G), GroupIn: u(gin), GroupOut: u(gout)}
		for _, threads := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
		}
	}
}

// TestBatchMatMulSplit runs batch matrix products (broadcast batches, the transpose flag,
// row counts around the tile) against the definition at 1, 2 and 3 threads, so the packing
// across batches and the (batch, row block) split are what run.
func TestBatchMatMulSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range []struct {
		ab, bb     []int
		m, k, n    int
		transposeB bool
	}{
		{[]int{3}, []int{3}, 197, 64, 197, true}, {[]int{3}, []int{3}, 197, 197, 64, false},
		{[]int{2, 1}, []int{1, 3}, 15, 5, 17, false}, {[]int{1}, []int{4}, 1, 9, 40, true}, {nil, nil, 29, 33, 7, true},
	} {
		rnd := func(dims ...int) xnntest.Operand {
			n := 1
			for _, d := range dims {
				n *= d
			}
			o := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
			for i := range o.Data {
				o.Data[i] = float64(float32(r.NormFloat64()))
			}
			return o
		}
		bdims := []int{s.k, s.n}
		if s.transposeB {
			bdims = []int{s.n, s.k}
		}
		a, b := rnd(append(append([]int(nil), s.ab...), s.m, s.k)...), rnd(append(append([]int(nil), s.bb...), bdims...)...)
		batch, err := xnngraph.BroadcastDims(s.ab, s.bb)
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := broadcastStrides(s.ab, batch), broadcastStrides(s.bb, batch)
		nb := 1
		for _, d := range batch {
			nb *= d
		}
		y := xnntest.Operand{Dims: append(append([]int(nil), batch...), s.m, s.n), Data: make([]float64, nb*s.m*s.n)}
		for bi := 0; bi < nb; bi++ {
			oa, ob, rest := 0, 0, bi
			for d := len(batch) - 1; d >= 0; d-- {
				x := rest % batch[d]
				rest /= batch[d]
				oa += x * sa[d]
				ob += x * sb[d]
			}
			for i := 0; i < s.m; i++ {
				for j := 0; j < s.n; j++ {
					acc := 0.0
					for kk := 0; kk < s.k; kk++ {
						bv := b.Data[ob*s.k*s.n+kk*s.n+j]
						if s.transposeB {
							bv = b.Data[ob*s.k*s.n+j*s.k+kk]
						}
						acc += a.Data[oa*s.m*s.k+i*s.k+kk] * bv
					}
					y.Data[(bi*s.m+i)*s.n+j] = acc
				}
			}
		}
		c := &xnntest.OpCase{Name: fmt.Sprint("bmm", s.ab, s.bb, s.m, s.k, s.n, s.transposeB), Op: "XNNBatchMatrixMultiply", Inputs: []xnntest.Operand{a, b}, Output: y}
		if s.transposeB {
			c.Flags = xnngraph.FlagTransposeWeights
		}
		for _, threads := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
		}
	}
}

// TestScalarOperand runs adds and multiplies by a one-element operand, on either side, past
// the scalar block's length, at 1 and 2 threads.
func TestScalarOperand(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, op := range []string{"XNNAdd", "XNNMultiply"} {
		for _, dims := range [][]int{{3, 5, 7}, {2, 300}, {1}} {
			for _, swap := range []bool{false, true} {
				n := 1
				for _, d := range dims {
					n *= d
				}
				a := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
				for i := range a.Data {
					a.Data[i] = float64(float32(r.NormFloat64()))
				}
				s := xnntest.Operand{Dims: []int{1}, Data: []float64{float64(float32(r.NormFloat64()))}}
				y := xnntest.Operand{Dims: dims, Data: make([]float64, n)}
				for i, v := range a.Data {
					if op == "XNNAdd" {
						y.Data[i] = float64(float32(v) + float32(s.Data[0]))
					} else {
						y.Data[i] = float64(float32(v) * float32(s.Data[0]))
					}
				}
				in := []xnntest.Operand{a, s}
				if swap {
					in = []xnntest.Operand{s, a}
				}
				c := &xnntest.OpCase{Name: fmt.Sprint(op, dims, swap), Op: op, Inputs: in, Output: y}
				for _, threads := range []int{1, 2} {
					t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) { runCase(t, c, threads) })
				}
			}
		}
	}
}

// TestOutputsInPlace runs one plan three times into different output tensors: each call's
// output is written in place and right, and a later call leaves an earlier call's tensor alone
// (the plan drops the caller's memory after each call).
func TestOutputsInPlace(t *testing.T) {
	a := xnntest.Operand{Dims: []int{2, 9}, Data: make([]float64, 18)}
	for i := range a.Data {
		a.Data[i] = float64(i)
	}
	y := xnntest.Operand{Dims: []int{2, 9}, Data: make([]float64, 18)}
	for i, v := range a.Data {
		y.Data[i] = 2 * v
	}
	c := &xnntest.OpCase{Name: "add", Op: "XNNAdd", Inputs: []xnntest.Operand{a, a}, Output: y}
	p, err := newPlan(xnntest.Graph(t, c), nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := executor.FromSlice(f32(a.Data), 2, 9)
	if err != nil {
		t.Fatal(err)
	}
	var outs []*executor.Tensor
	for call := 0; call < 3; call++ {
		out, err := executor.NewTensor(executor.Float32, 2, 9)
		if err != nil {
			t.Fatal(err)
		}
		args := []*executor.EValue{{Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: x}, {Tag: executor.TagTensor, Tensor: out}}
		if err := p.execute(args); err != nil {
			t.Fatal(err)
		}
		if !p.outBound[p.outputs[0]] {
			t.Fatal("the output was not written in place")
		}
		outs = append(outs, out)
		for k, o := range outs {
			got := executor.Data[float32](o)
			for i, w := range y.Data {
				if float64(got[i]) != w {
					t.Fatalf("after call %d, call %d's output [%d] = %v, want %v", call, k, i, got[i], w)
				}
			}
		}
	}
}
