package portable

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/etgo/etgo/runtime"
)

// convolutionCase is a convolution with inputs from linalgSeq: input linalgSeq(n, 7, 11, 5, 0.5),
// weight linalgSeq(n, 5, 7, 3, 0.25), bias linalgSeq(oc, 3, 5, 2, 1). Expected values are
// torch.nn.functional.conv1d/conv2d/conv_transpose1d/conv_transpose2d on the same inputs
// (multiples of 1/8, exact in every floating dtype).
type convolutionCase struct {
	name                      string
	in, w                     []int
	bias                      bool
	stride, padding, dilation []int64
	transposed                bool
	outPadding                []int64
	groups                    int
	sizes                     []int
	want                      []float64
}

var convolutionCases = []convolutionCase{
	{"2d pad 1 bias", []int{1, 2, 4, 4}, []int{3, 2, 3, 3}, true, []int64{1, 1}, []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{1, 3, 4, 4}, []float64{-5.625, 2.875, -2.5, -0.875, 0, -0.75, -2, 1.375, -6.875, -0.25, -0.125, -7.125, -0.625, 0.75, -2.875, -3.875, 2, 3.875, 0.25, 2.125, -1.375, -3.5, 3.375, -0.75, 1.5, 2, 2, 0.5, 1.625, -4.125, 5, -1.375, -0.625, -6.25, 1.5, -1.625, -1.625, 0.125, -4.125, -1.75, 1.375, -8.625, 0.875, -0.375, -2.875, -0.875, 1.75, -1.25}},
	{"2d stride 2 dilation 2", []int{1, 2, 6, 7}, []int{2, 2, 2, 2}, false, []int64{2, 2}, []int64{0, 0}, []int64{2, 2}, false, []int64{0, 0}, 1, []int{1, 2, 2, 3}, []float64{0.5, -0.625, -0.375, -1.875, 3.875, 0, -2.125, -2.75, 2.125, -1, -1.625, 1.875}},
	{"2d uneven stride pad", []int{2, 1, 5, 4}, []int{2, 1, 3, 2}, true, []int64{2, 1}, []int64{1, 0}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{2, 2, 3, 3}, []float64{-2.5, -2.125, -1.75, -3.375, 0.25, -0.25, -4.25, 0, -2.625, -1.625, 3.75, -0.5, -0.25, 3, -0.625, 0.75, 0.375, 0, -1.875, 1.25, -2.5, -1, -4.25, -3.375, -3.125, 1.125, -4.25, 4.125, -0.125, -1.625, -1.25, 2, -0.25, 4.25, 1.125, 0.75}},
	{"2d groups 2", []int{1, 4, 3, 3}, []int{4, 2, 2, 2}, true, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, 2, []int{1, 4, 2, 2}, []float64{1.625, -5.125, -2.125, -3.375, -1.875, 2.625, 0.625, 1, -3.125, -3.125, -1.75, 1, 2.375, 2, 1.25, 3.625}},
	{"2d depthwise multiplier 2", []int{1, 3, 4, 4}, []int{6, 1, 3, 3}, true, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 3, []int{1, 6, 2, 2}, []float64{-4.75, -3.75, -4.125, -3, 1.625, -1.125, -0.5, 1.625, -0.75, -3.875, 0.5, -5, 4.25, 0.25, 2.5, 2.5, 1.75, -2.5, -1, -3, -3.75, -0.375, 1, -1.375}},
	{"2d depthwise dilated", []int{1, 2, 5, 5}, []int{2, 1, 3, 3}, false, []int64{1, 1}, []int64{2, 2}, []int64{2, 2}, false, []int64{0, 0}, 2, []int{1, 2, 5, 5}, []float64{-1.25, 2.75, 1.25, 2.75, -1.25, -0.5, 2.125, -1.5, -2.125, 2.125, -3.75, -0.75, 4, 0.375, 3.75, 0.125, -0.125, 1.875, -1.75, -1.75, 0.25, -1.375, -2, 2.375, 1, 0.25, -0.875, -0.5, 0.875, -0.125, 0.125, 1.75, 0.125, 0, 0.375, -3.75, 1.5, 0.125, -0.5, 0.875, -0.5, -1.75, 2.5, 0.875, 0.5, -1.25, -2.5, 2, 0.375, 0}},
	{"2d pointwise", []int{1, 3, 2, 2}, []int{2, 3, 1, 1}, true, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{1, 2, 2, 2}, []float64{0.125, -3.5, -0.25, -3.875, 2.125, -0.25, 2.875, -0.875}},
	{"2d single-value lists", []int{1, 1, 4, 4}, []int{1, 1, 2, 2}, false, []int64{2}, []int64{1}, []int64{1}, false, []int64{0}, 1, []int{1, 1, 3, 3}, []float64{1.25, 0.5, 0, 1.25, 2.375, 0, 0.5, 2, -0.375}},
	{"1d", []int{2, 2, 5}, []int{3, 2, 3}, true, []int64{2}, []int64{1}, []int64{1}, false, []int64{0}, 1, []int{2, 3, 3}, []float64{-3.875, -4.75, -1.5, 5.625, 1.25, -0.75, -2.125, -0.375, -1.5, -2.25, 2.625, -1.5, -1.25, -0.625, 0.375, 1.75, -1.875, -1.875}},
	{"1d dilated", []int{1, 1, 7}, []int{2, 1, 2}, false, []int64{1}, []int64{0}, []int64{3}, false, []int64{0}, 1, []int{1, 2, 4}, []float64{3.125, -0.5, 0, -0.875, -1.25, -0.25, 0.75, -1}},
	{"1d depthwise", []int{1, 2, 4}, []int{2, 1, 3}, false, []int64{1}, []int64{1}, []int64{1}, false, []int64{0}, 2, []int{1, 2, 4}, []float64{-1.25, 2.375, -1.25, 2, 0, -0.875, 2.25, -1}},
	{"transposed 2d", []int{1, 2, 3, 3}, []int{2, 3, 3, 3}, true, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, true, []int64{1, 1}, 1, []int{1, 3, 6, 6}, []float64{-4.625, -2, -1, -1.625, -1.5, -4.125, 0, -4.375, -1.625, -1.5, -3.25, 0.625, -0.625, -0.875, -1.125, -1.875, -4.375, -0.5, -3.5, -1.25, -1, 0.25, -4, -3.625, -0.75, -1.125, -1.25, -2.125, -4.5, -1, -3.625, -1.75, -1.625, 0.125, -1, -4.5, 2, 2.375, 0.625, -1.75, 0.625, 2.375, 0.5, 4, 0.5, 4, 0.5, -0.875, 0.625, -1.75, 0.625, 2.375, 2, 1.5, 0.5, 1.25, 0.5, -0.125, 3.25, -0.75, 0.625, -1.75, 0.625, 2.375, 2, 2, 1.25, 1.125, 0.25, -1.5, 2, 2, -3.375, -0.875, -0.125, 0.125, 0.375, -2.25, -2.25, -0.5, -0.625, -3.375, 1, -2.125, -0.5, -0.625, 0, -1, -3.625, 0.25, 1.25, 0.5, -1.25, -3.75, -2.375, 1.5, -0.375, -0.375, 0.125, -0.75, -3.5, 0, 0.25, -0.125, -0.25, -1.125, -3.5, 0}},
	{"transposed 2d groups dilation", []int{1, 4, 2, 2}, []int{4, 1, 2, 2}, false, []int64{1, 1}, []int64{0, 0}, []int64{2, 2}, true, []int64{0, 0}, 2, []int{1, 2, 4, 4}, []float64{2.25, -1.875, -1.125, 0.125, 2.25, -1.875, 0, 1.25, -0.125, 0.375, 0.875, 0.625, -0.5, 0, -1, -1.25, -0.75, 0.5, -0.25, 0.25, 0.375, -1.125, -0.625, -0.125, 0.25, 0, -1, 0.625, -1.625, 0.875, 0.875, -1.625}},
	{"transposed 2d depthwise", []int{1, 2, 2, 3}, []int{2, 1, 3, 2}, true, []int64{2, 1}, []int64{0, 1}, []int64{1, 1}, true, []int64{1, 0}, 2, []int{1, 2, 6, 2}, []float64{-4, -0.75, -0.75, -2.5, -1, -1.125, -3.25, -2.25, -1, -3, -2, -2, -0.5, 1.5, 1, 0, 1.5, 3, 0.75, -0.25, 2.375, 1.875, 1, 1}},
	{"transposed 1d", []int{1, 2, 4}, []int{2, 2, 3}, true, []int64{3}, []int64{0}, []int64{1}, true, []int64{2}, 1, []int{1, 2, 14}, []float64{-0.25, -3.625, -1.75, -2.375, -0.375, -2.75, -1.75, -4, -1, -3.875, -0.75, -2, -2, -2, 2.25, -1.125, 0.75, 0.5, 2.5, 0.125, 1.5, -0.75, 2.25, -0.25, 2.875, 1.625, 1, 1}},
	{"transposed 1d padded", []int{2, 1, 3}, []int{1, 2, 2}, false, []int64{1}, []int64{1}, []int64{1}, true, []int64{0}, 1, []int{2, 2, 2}, []float64{-2, 1.25, 1.25, -0.5, 0.875, 1.375, -1.25, -0.25}},
}

// args builds the arguments of a case in dtype.
func (c convolutionCase) args(t testing.TB, dtype runtime.ScalarType, out *runtime.Tensor) []any {
	in := linalgTensor(t, dtype, linalgSeq(linalgNumel(c.in), 7, 11, 5, 0.5), c.in...)
	w := linalgTensor(t, dtype, linalgSeq(linalgNumel(c.w), 5, 7, 3, 0.25), c.w...)
	var bias any = none
	if c.bias {
		oc := c.w[0]
		if c.transposed {
			oc = c.groups * c.w[1]
		}
		bias = linalgTensor(t, dtype, linalgSeq(oc, 3, 5, 2, 1), oc)
	}
	return []any{in, w, bias, c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out}
}

func TestConvolution(t *testing.T) {
	for _, dtype := range []runtime.ScalarType{runtime.Float32, runtime.Float64, runtime.Float16, runtime.BFloat16} {
		for _, c := range convolutionCases {
			t.Run(runtime.DTypeName(dtype)+"/"+c.name, func(t *testing.T) {
				out := empty(t, dtype, c.sizes...)
				if err := call(t, "aten::convolution.out", c.args(t, dtype, out)...); err != nil {
					t.Fatal(err)
				}
				wantValuesAny(t, out, c.sizes, c.want)
			})
		}
	}
}

// convolutionReference computes a convolution from its definition, in float64, for the sizes
// of a case (input [N, C, H, W] or [N, C, L]).
func convolutionReference(c convolutionCase, in, w, bias []float64) ([]int, []float64) {
	is, ws := append([]int(nil), c.in...), append([]int(nil), c.w...)
	p := func(l []int64, d int) int { return int(l[min(d, len(l)-1)]) }
	sp := len(is) - 2
	var s, pad, dil, op [2]int
	for d := 0; d < 2; d++ {
		s[d], dil[d] = 1, 1
	}
	for d := 0; d < sp; d++ {
		k := d + 2 - sp
		s[k], pad[k], dil[k] = p(c.stride, d), p(c.padding, d), p(c.dilation, d)
		if c.transposed {
			op[k] = p(c.outPadding, d)
		}
	}
	if sp == 1 { // as 2-D with height 1
		is = []int{is[0], is[1], 1, is[2]}
		ws = []int{ws[0], ws[1], 1, ws[2]}
	}
	n, ch, h, wd, kh, kw, g := is[0], is[1], is[2], is[3], ws[2], ws[3], c.groups
	cg := ch / g
	var oc, oh, ow int
	if c.transposed {
		oc = g * ws[1]
		oh = (h-1)*s[0] - 2*pad[0] + dil[0]*(kh-1) + op[0] + 1
		ow = (wd-1)*s[1] - 2*pad[1] + dil[1]*(kw-1) + op[1] + 1
	} else {
		oc = ws[0]
		oh = (h+2*pad[0]-dil[0]*(kh-1)-1)/s[0] + 1
		ow = (wd+2*pad[1]-dil[1]*(kw-1)-1)/s[1] + 1
	}
	ocg := oc / g
	out := make([]float64, n*oc*oh*ow)
	for b := 0; b < n; b++ {
		for o := 0; o < oc; o++ {
			for i := 0; i < oh*ow; i++ {
				if bias != nil {
					out[(b*oc+o)*oh*ow+i] = bias[o]
				}
			}
		}
	}
	for b := 0; b < n; b++ {
		for grp := 0; grp < g; grp++ {
			for ci := 0; ci < cg; ci++ {
				for o := 0; o < ocg; o++ {
					for ky := 0; ky < kh; ky++ {
						for kx := 0; kx < kw; kx++ {
							if c.transposed {
								wv := w[(((grp*cg+ci)*ocg+o)*kh+ky)*kw+kx]
								for iy := 0; iy < h; iy++ {
									for ix := 0; ix < wd; ix++ {
										oy, ox := iy*s[0]-pad[0]+ky*dil[0], ix*s[1]-pad[1]+kx*dil[1]
										if oy >= 0 && oy < oh && ox >= 0 && ox < ow {
											out[((b*oc+grp*ocg+o)*oh+oy)*ow+ox] += wv * in[((b*ch+grp*cg+ci)*h+iy)*wd+ix]
										}
									}
								}
								continue
							}
							wv := w[(((grp*ocg+o)*cg+ci)*kh+ky)*kw+kx]
							for oy := 0; oy < oh; oy++ {
								for ox := 0; ox < ow; ox++ {
									iy, ix := oy*s[0]-pad[0]+ky*dil[0], ox*s[1]-pad[1]+kx*dil[1]
									if iy >= 0 && iy < h && ix >= 0 && ix < wd {
										out[((b*oc+grp*ocg+o)*oh+oy)*ow+ox] += wv * in[((b*ch+grp*cg+ci)*h+iy)*wd+ix]
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if sp == 1 {
		return []int{n, oc, ow}, out
	}
	return []int{n, oc, oh, ow}, out
}

// TestConvolutionReference compares larger convolutions, which cross the matrix-multiply
// blocks and take every path (im2col, pointwise, depthwise, transposed), with the definition.
func TestConvolutionReference(t *testing.T) {
	// The reference itself agrees with torch on the small cases.
	for _, c := range convolutionCases {
		var bias []float64
		if c.bias {
			oc := c.w[0]
			if c.transposed {
				oc = c.groups * c.w[1]
			}
			bias = linalgSeq(oc, 3, 5, 2, 1)
		}
		sizes, got := convolutionReference(c, linalgSeq(linalgNumel(c.in), 7, 11, 5, 0.5), linalgSeq(linalgNumel(c.w), 5, 7, 3, 0.25), bias)
		if !slices.Equal(sizes, c.sizes) || !slices.Equal(got, c.want) {
			t.Fatalf("reference for %q: %v %v, want %v %v", c.name, sizes, got, c.sizes, c.want)
		}
	}
	r := rand.New(rand.NewSource(7))
	ints := func(n, lim int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(2*lim+1) - lim)
		}
		return v
	}
	l := func(v ...int64) []int64 { return v }
	for _, c := range []convolutionCase{
		{name: "im2col 16ch 24x24", in: []int{1, 16, 24, 24}, w: []int{8, 16, 3, 3}, bias: true, stride: l(1), padding: l(1), dilation: l(1), outPadding: l(0), groups: 1},
		{name: "im2col stride 2 groups 2", in: []int{2, 6, 11, 9}, w: []int{4, 3, 3, 2}, stride: l(2, 3), padding: l(1, 2), dilation: l(1, 2), outPadding: l(0), groups: 2},
		{name: "pointwise groups 4", in: []int{1, 8, 5, 30}, w: []int{12, 2, 1, 1}, bias: true, stride: l(1), padding: l(0), dilation: l(3), outPadding: l(0), groups: 4},
		{name: "pointwise stride 2", in: []int{1, 4, 7, 7}, w: []int{3, 4, 1, 1}, stride: l(2), padding: l(0), dilation: l(1), outPadding: l(0), groups: 1},
		{name: "depthwise 5x5 stride 2", in: []int{2, 4, 13, 12}, w: []int{8, 1, 5, 5}, bias: true, stride: l(2), padding: l(2), dilation: l(1), outPadding: l(0), groups: 4},
		{name: "1-D long", in: []int{1, 5, 700}, w: []int{6, 5, 4}, bias: true, stride: l(1), padding: l(3), dilation: l(2), outPadding: l(0), groups: 1},
		{name: "transposed stride 3 groups 2", in: []int{2, 4, 5, 4}, w: []int{4, 3, 3, 2}, bias: true, stride: l(3, 2), padding: l(1, 0), dilation: l(1, 2), transposed: true, outPadding: l(2, 1), groups: 2},
		{name: "transposed 1-D", in: []int{1, 70, 9}, w: []int{70, 3, 4}, stride: l(2), padding: l(1), dilation: l(1), transposed: true, outPadding: l(1), groups: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, w := ints(linalgNumel(c.in), 3), ints(linalgNumel(c.w), 2)
			oc := c.w[0]
			if c.transposed {
				oc = c.groups * c.w[1]
			}
			var bias []float64
			var biasArg any = none
			if c.bias {
				bias = ints(oc, 5)
				biasArg = linalgTensor(t, runtime.Float32, bias, oc)
			}
			sizes, want := convolutionReference(c, in, w, bias)
			out := empty(t, runtime.Float32, sizes...)
			err := call(t, "aten::convolution.out", linalgTensor(t, runtime.Float32, in, c.in...), linalgTensor(t, runtime.Float32, w, c.w...), biasArg,
				c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out)
			if err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, sizes, want)
		})
	}
}

func TestConvolutionMore(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	conv := func(in, w, bias any, stride, padding, dilation []int64, transposed bool, outPadding []int64, groups int, out *runtime.Tensor) error {
		return call(t, "aten::convolution.out", in, w, bias, stride, padding, dilation, transposed, outPadding, groups, out, out)
	}
	c0 := convolutionCases[0] // "2d pad 1 bias"

	// Integral convolution: torch.nn.functional.conv2d on int32 linalgSeq(n, 7, 11, 5, 1),
	// linalgSeq(n, 5, 7, 3, 1), bias linalgSeq(3, 3, 5, 2, 1), padding 1.
	out := empty(t, runtime.Int32, 1, 3, 4, 4)
	if err := conv(linalgTensor(t, runtime.Int32, linalgSeq(32, 7, 11, 5, 1), 1, 2, 4, 4), linalgTensor(t, runtime.Int32, linalgSeq(54, 5, 7, 3, 1), 3, 2, 3, 3),
		linalgTensor(t, runtime.Int32, linalgSeq(3, 3, 5, 2, 1), 3), l(1), l(1), l(1), false, l(0), 1, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 3, 4, 4}, []float64{-31, 37, -6, 7, 14, 8, -2, 25, -41, 12, 13, -43, 9, 20, -9, -17, 9, 24, -5, 10, -18, -35, 20, -13,
		5, 9, 9, -3, 6, -40, 33, -18, 2, -43, 19, -6, -6, 8, -26, -7, 18, -62, 14, 4, -16, 0, 21, -3})

	// int8 wraps as torch's does: 4·100·3 = 1200 → -80.
	out8 := empty(t, runtime.Int8, 1, 1, 2, 2)
	if err := conv(tensor(t, []int8{100, 100, 100, 100, 100, 100, 100, 100, 100}, 1, 1, 3, 3), tensor(t, []int8{3, 3, 3, 3}, 1, 1, 2, 2), none, l(1), l(0), l(1), false, l(0), 1, out8); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out8, []int{1, 1, 2, 2}, []float64{-80, -80, -80, -80})

	// A float64 bias on a float32 convolution (ExecuTorch converts the bias).
	args := c0.args(t, runtime.Float32, empty(t, runtime.Float32, c0.sizes...))
	args[2] = linalgTensor(t, runtime.Float64, linalgSeq(3, 3, 5, 2, 1), 3)
	if err := call(t, "aten::convolution.out", args...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, args[9].(*runtime.Tensor), c0.sizes, c0.want)

	// Dynamic out, resized to the result.
	dyn := dynamic(t, runtime.Float32, 2, 3, 5, 5)
	if err := call(t, "aten::convolution.out", c0.args(t, runtime.Float32, dyn)...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, dyn, c0.sizes, c0.want)

	// Empty batch; no input channels gives no output channels (as in torch).
	w := linalgTensor(t, runtime.Float32, linalgSeq(54, 5, 7, 3, 0.25), 3, 2, 3, 3)
	outN := empty(t, runtime.Float32, 0, 3, 4, 4)
	if err := conv(empty(t, runtime.Float32, 0, 2, 4, 4), w, none, l(1), l(1), l(1), false, l(0), 1, outN); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outN, []int{0, 3, 4, 4}, nil)
	outC := empty(t, runtime.Float32, 1, 0, 2, 2)
	if err := conv(empty(t, runtime.Float32, 1, 0, 4, 4), empty(t, runtime.Float32, 3, 0, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, outC); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outC, []int{1, 0, 2, 2}, nil)

	// A transposed convolution's weight with one output channel per group may come in dim
	// order [1, 0, 2, 3]: the same memory layout, so it is accepted ("transposed 2d groups
	// dilation" has weight [4, 1, 2, 2]).
	ct := convolutionCases[12]
	if ct.name != "transposed 2d groups dilation" {
		t.Fatalf("case 12 is %q", ct.name)
	}
	outT := empty(t, runtime.Float32, ct.sizes...)
	args = ct.args(t, runtime.Float32, outT)
	args[1] = linalgWithDimOrder(t, args[1].(*runtime.Tensor), []uint8{1, 0, 2, 3})
	if err := call(t, "aten::convolution.out", args...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outT, ct.sizes, ct.want)
}

func TestConvolutionErrors(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	f32 := func(s ...int) *runtime.Tensor { return empty(t, runtime.Float32, s...) }
	in, w := f32(1, 2, 4, 4), f32(3, 2, 3, 3)
	conv := func(in, w, bias any, stride, padding, dilation []int64, transposed bool, outPadding []int64, groups int, out *runtime.Tensor) error {
		return call(t, "aten::convolution.out", in, w, bias, stride, padding, dilation, transposed, outPadding, groups, out, none)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"rank", conv(in, f32(3, 2, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 1 (weight): want a 4-D tensor like input, got 3-D sizes [3 2 3]"},
		{"rank 5", conv(f32(1, 1, 2, 2, 2), f32(1, 1, 1, 1, 1), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 1, 2, 2, 2)), "want a 3-D [N, C, L] or 4-D [N, C, H, W] tensor, got 5-D"},
		{"channels vs groups", conv(in, f32(4, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 2, f32(1, 4, 2, 2)), "argument 0 (input): has 2 channels; weight [4 2 3 3] with groups = 2 expects 4"},
		{"groups divide", conv(in, f32(3, 1, 3, 3), none, l(1), l(0), l(1), false, l(0), 2, f32(1, 3, 2, 2)), "size(0) = 3 is not a positive multiple of groups = 2"},
		{"groups zero", conv(in, w, none, l(1), l(0), l(1), false, l(0), 0, f32(1, 3, 2, 2)), "argument 8 (groups): want a positive number"},
		{"transposed channels", conv(in, f32(3, 2, 3, 3), none, l(1), l(0), l(1), true, l(0), 1, f32(1, 2, 6, 6)), "a transposed convolution's weight [3 2 3 3] expects 3"},
		{"kernel too large", conv(in, f32(3, 2, 5, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 1, 2)), "give output sizes [0 2]; each must be at least 1"},
		{"dilated kernel too large", conv(f32(1, 2, 5), f32(3, 2, 3), none, l(2), l(0), l(3), false, l(0), 1, f32(1, 3, 1)), "give output sizes [0]"},
		{"transposed output negative", conv(f32(1, 3, 1, 1), f32(3, 1, 1, 1), none, l(1), l(1), l(1), true, l(0), 1, f32(1, 1, 1, 1)), "give output sizes [-1 -1]"},
		{"bias length", conv(in, w, f32(2), l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 2 (bias): sizes [2]; want [3]"},
		{"bias rank", conv(in, w, f32(1, 3), l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 2 (bias): sizes [1 3]"},
		{"stride zero", conv(in, w, none, l(0), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 3 (stride): value 0 out of range"},
		{"padding negative", conv(in, w, none, l(1), l(0, -1), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 4 (padding): value -1 out of range"},
		{"dilation length", conv(in, w, none, l(1), l(0), l(1, 1, 1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 5 (dilation): want 1 or 2 values, got 3"},
		{"empty stride", conv(in, w, none, l(), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 3 (stride): want 1 or 2 values, got 0"},
		{"output padding", conv(f32(1, 3, 2, 2), f32(3, 1, 3, 3), none, l(2), l(0), l(1), true, l(2), 1, f32(1, 1, 6, 6)), "output_padding): 2 must be smaller than either stride (2) or dilation (1)"},
		{"dtype", conv(in, empty(t, runtime.Float64, 3, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "weight is float64 but input is float32"},
		{"bool", conv(empty(t, runtime.Bool, 1, 2, 4, 4), empty(t, runtime.Bool, 3, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, empty(t, runtime.Bool, 1, 3, 2, 2)), "dtype bool is not supported"},
		{"out size", conv(in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 4, 4)), "cannot resize a static tensor"},
		{"out rank", conv(in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(3, 2, 2)), "argument 9 (out): want a 4-D tensor like input"},
		{"channels last", conv(linalgWithDimOrder(t, tensor(t, linalgSeqF32(32), 1, 2, 4, 4), []uint8{0, 2, 3, 1}), w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)),
			"argument 0 (input): dim order [0 2 3 1] is not supported; this kernel needs the default (contiguous) dim order"},
		{"stride type", call(t, "aten::convolution.out", in, w, none, 1, l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2), none), "argument 3 (stride): want IntList, got Int"},
		{"bias type", call(t, "aten::convolution.out", in, w, 1.5, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2), none), "argument 2 (bias): want Tensor, got Double"},
		{"arg count", call(t, "aten::convolution.out", in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "10 arguments, the schema takes 11"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, tc.want) })
	}
}

func linalgSeqF32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

func BenchmarkConv2d_3x3_64ch(b *testing.B) {
	in := linalgTensor(b, runtime.Float32, linalgSeq(64*56*56, 7, 11, 5, 0.5), 1, 64, 56, 56)
	w := linalgTensor(b, runtime.Float32, linalgSeq(64*64*9, 5, 7, 3, 0.25), 64, 64, 3, 3)
	bias := linalgTensor(b, runtime.Float32, linalgSeq(64, 3, 5, 2, 1), 64)
	out := empty(b, runtime.Float32, 1, 64, 56, 56)
	l := []int64{1, 1}
	b.ResetTimer()
	for range b.N {
		if err := call(b, "aten::convolution.out", in, w, bias, l, l, l, false, []int64{0, 0}, 1, out, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*64*64*9*56*56*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// TestConvolutionOverhang runs a grid of convolutions whose windows are wider than their input,
// overhanging it on one or both sides (kernel > input, padding on both sides, dilation, stride
// past the input), through every path (im2col, depthwise, pointwise, transposed, 1-D and 2-D),
// against the definition. Issue 20: a depthwise 9×9 over a 3×3 input with padding 4 sliced
// before its input.
func TestConvolutionOverhang(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	var cases []convolutionCase
	// The layer: nn.Conv2d(300, 300, 9, padding=4, groups=300) on 1×300×3×3.
	cases = append(cases, convolutionCase{name: "issue 20 depthwise 300", in: []int{1, 300, 3, 3}, w: []int{300, 1, 9, 9}, bias: true,
		stride: l(1), padding: l(4), dilation: l(1), outPadding: l(0), groups: 300})
	type geom struct{ in, k, s, p, d, op int }
	var dims []geom
	for _, in := range []int{1, 2, 3} {
		for _, k := range []int{1, 2, 4, 7} {
			for _, s := range []int{1, 2, 5} {
				for _, p := range []int{0, 1, 3, 5} {
					for _, d := range []int{1, 3} {
						dims = append(dims, geom{in, k, s, p, d, 0})
					}
				}
			}
		}
	}
	i := 0
	for _, transposed := range []bool{false, true} {
		for _, g := range dims {
			for _, gr := range []struct{ c, oc, groups int }{{1, 1, 1}, {2, 3, 1}, {4, 4, 4}, {4, 6, 2}} {
				i++
				op := 0
				if transposed {
					op = i % max(g.s, g.d) // output_padding below stride or dilation
				}
				span := g.d*(g.k-1) + 1
				if !transposed && g.in+2*g.p < span || transposed && (g.in-1)*g.s-2*g.p+span+op < 1 {
					continue // torch refuses these
				}
				w := []int{gr.oc, gr.c / gr.groups}
				if transposed {
					w = []int{gr.c, gr.oc / gr.groups}
				}
				c := convolutionCase{bias: i%2 == 0, transposed: transposed, groups: gr.groups, outPadding: l(int64(op))}
				if i%3 == 0 { // 1-D
					c.in = []int{1, gr.c, g.in}
					c.w = append(w, g.k)
					c.stride, c.padding, c.dilation = l(int64(g.s)), l(int64(g.p)), l(int64(g.d))
				} else { // 2-D: the grid along W, a plain 3-wide window over 4 rows along H
					c.in = []int{1 + i%2, gr.c, 4, g.in}
					c.w = append(w, 3, g.k)
					c.stride, c.padding, c.dilation = l(1, int64(g.s)), l(1, int64(g.p)), l(1, int64(g.d))
					c.outPadding = l(0, int64(op))
					if i%5 == 0 { // the grid along H too
						c.in[2], c.w[2] = g.in, g.k
						c.stride[0], c.padding[0], c.dilation[0], c.outPadding[0] = c.stride[1], c.padding[1], c.dilation[1], c.outPadding[1]
					}
				}
				c.name = fmt.Sprintf("%d transposed=%v in=%v w=%v s=%v p=%v d=%v op=%v groups=%d", i, transposed, c.in, c.w, c.stride, c.padding, c.dilation, c.outPadding, c.groups)
				cases = append(cases, c)
			}
		}
	}
	r := rand.New(rand.NewSource(20))
	ints := func(n, lim int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(2*lim+1) - lim)
		}
		return v
	}
	for _, c := range cases {
		in, w := ints(linalgNumel(c.in), 3), ints(linalgNumel(c.w), 2)
		oc := c.w[0]
		if c.transposed {
			oc = c.groups * c.w[1]
		}
		var bias []float64
		var biasArg any = none
		if c.bias {
			bias = ints(oc, 5)
			biasArg = linalgTensor(t, runtime.Float32, bias, oc)
		}
		sizes, want := convolutionReference(c, in, w, bias)
		out := empty(t, runtime.Float32, sizes...)
		err := call(t, "aten::convolution.out", linalgTensor(t, runtime.Float32, in, c.in...), linalgTensor(t, runtime.Float32, w, c.w...), biasArg,
			c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !t.Run(c.name, func(t *testing.T) { wantValuesAny(t, out, sizes, want) }) {
			break
		}
	}
	t.Logf("%d cases", len(cases))
}
