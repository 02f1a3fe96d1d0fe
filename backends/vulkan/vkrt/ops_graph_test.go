package vkrt_test

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/executor"
)

const (
	f32 = schema.VkDataTypeFLOAT32
	i32 = schema.VkDataTypeINT32
	bl  = schema.VkDataTypeBOOL
)

var nan = float32(math.NaN())

// TestWordOps runs, on the device, the forms of the int/bool operators that the official
// partitioner's one-operator fixtures (testdata/vkrt) do not reach, each against torch's
// result written out by hand: arg-reductions without a dim or along an inner dim, bitwise_not
// of ints, ones/zeros, a descending float arange, casts to int32 and bool, int32 wrap-around,
// where on ints, comparisons of ints with a float number, and the float64/float16 staging
// casts.
func TestWordOps(t *testing.T) {
	requireDevice(t)
	type tc struct {
		name  string
		build func(b *gb)
		ins   []*executor.Tensor
		outs  []*executor.Tensor // the call's outputs (zeroed), compared with want
		want  []*executor.Tensor
	}
	cases := []tc{
		{"argmax flat, first NaN", func(b *gb) {
			x := b.input(f32, 2, 3)
			b.op("aten.argmax.default", x, b.null(), b.bool(false), b.output(i32))
		}, []*executor.Tensor{tensorOf[float32](t, []int{2, 3}, 1, 5, nan, 7, nan, 2)},
			[]*executor.Tensor{tensorOf[int64](t, []int{})}, []*executor.Tensor{tensorOf[int64](t, []int{}, 2)}},
		{"argmin int32 along dim 0, keepdim, first of ties", func(b *gb) {
			x := b.input(i32, 3, 2)
			b.op("aten.argmin.default", x, b.int(0), b.bool(true), b.output(i32, 1, 2))
		}, []*executor.Tensor{tensorOf[int32](t, []int{3, 2}, 4, -1, 2, -1, 2, -5)},
			[]*executor.Tensor{tensorOf[int32](t, []int{1, 2})}, []*executor.Tensor{tensorOf[int32](t, []int{1, 2}, 1, 2)}},
		{"bitwise_not int32", func(b *gb) {
			b.op("aten.bitwise_not.default", b.input(i32, 4), b.output(i32, 4))
		}, []*executor.Tensor{tensorOf[int32](t, []int{4}, 0, -1, 7, math.MinInt32)},
			[]*executor.Tensor{tensorOf[int32](t, []int{4})}, []*executor.Tensor{tensorOf[int32](t, []int{4}, -1, 0, -8, math.MaxInt32)}},
		{"ones bool and int32 + x", func(b *gb) {
			x := b.input(i32, 2, 2)
			n := b.null()
			ones := b.tensor(i32, 2, 2)
			b.op("aten.ones.default", b.ints(2, 2), n, n, n, b.bool(false), ones)
			b.op("aten.add.Tensor", x, ones, b.int(1), b.output(i32, 2, 2))
			b.op("aten.zeros.default", b.ints(3), n, n, n, b.bool(false), b.output(bl, 3))
		}, []*executor.Tensor{tensorOf[int32](t, []int{2, 2}, 1, 2, 3, 4)},
			[]*executor.Tensor{tensorOf[int32](t, []int{2, 2}), tensorOf[bool](t, []int{3})},
			[]*executor.Tensor{tensorOf[int32](t, []int{2, 2}, 2, 3, 4, 5), tensorOf[bool](t, []int{3}, false, false, false)}},
		{"arange descending float * x", func(b *gb) {
			x := b.input(f32, 8)
			n := b.null()
			r := b.tensor(f32, 8)
			b.op("aten.arange.start_step", b.double(3), b.int(-1), b.double(-0.5), n, n, n, b.bool(false), r)
			b.op("aten.mul.Tensor", x, r, b.output(f32, 8))
		}, []*executor.Tensor{tensorOf[float32](t, []int{8}, 1, 1, 1, 1, 1, 1, 1, -1)},
			[]*executor.Tensor{tensorOf[float32](t, []int{8})}, []*executor.Tensor{tensorOf[float32](t, []int{8}, 3, 2.5, 2, 1.5, 1, 0.5, 0, 0.5)}},
		// (NaN and out-of-range floats to int32 are undefined in torch and in GLSL: not tested)
		{"casts float to int32 (toward zero) and to bool (NaN true, -0 false)", func(b *gb) {
			x, y := b.input(f32, 5), b.input(f32, 5)
			n := b.null()
			b.op("dim_order_ops._to_dim_order_copy.default", x, n, n, n, n, b.bool(false), b.ints(0), b.output(i32, 5))
			b.op("dim_order_ops._to_dim_order_copy.default", y, n, n, n, n, b.bool(false), b.ints(0), b.output(bl, 5))
		}, []*executor.Tensor{tensorOf[float32](t, []int{5}, -2.7, 2.7, float32(math.Copysign(0, -1)), -1e9, 0.25),
			tensorOf[float32](t, []int{5}, -2.7, 0, float32(math.Copysign(0, -1)), nan, 0.25)},
			[]*executor.Tensor{tensorOf[int32](t, []int{5}), tensorOf[bool](t, []int{5})},
			[]*executor.Tensor{tensorOf[int32](t, []int{5}, -2, 2, 0, -1e9, 0), tensorOf[bool](t, []int{5}, true, false, false, true, true)}},
		{"int32 add with alpha wraps", func(b *gb) {
			x, y := b.input(i32, 3), b.input(i32, 3)
			b.op("aten.add.Tensor", x, y, b.int(2), b.output(i32, 3))
		}, []*executor.Tensor{tensorOf[int32](t, []int{3}, math.MaxInt32, -5, 1), tensorOf[int32](t, []int{3}, 1, 3, -1)},
			[]*executor.Tensor{tensorOf[int32](t, []int{3})}, []*executor.Tensor{tensorOf[int32](t, []int{3}, math.MinInt32+1, 1, -1)}},
		{"where on int32 with a broadcast condition", func(b *gb) {
			c, x, y := b.input(bl, 2, 1), b.input(i32, 2, 3), b.input(i32, 3)
			b.op("aten.where.self", c, x, y, b.output(i32, 2, 3))
		}, []*executor.Tensor{tensorOf[bool](t, []int{2, 1}, true, false), tensorOf[int32](t, []int{2, 3}, 1, 2, 3, 4, 5, 6), tensorOf[int32](t, []int{3}, -1, -2, -3)},
			[]*executor.Tensor{tensorOf[int32](t, []int{2, 3})}, []*executor.Tensor{tensorOf[int32](t, []int{2, 3}, 1, 2, 3, -1, -2, -3)}},
		{"int32 > 0.5 compares in float; == 2 in int", func(b *gb) {
			x := b.input(i32, 4)
			b.op("aten.gt.Scalar", x, b.double(0.5), b.output(bl, 4))
			b.op("aten.eq.Scalar", x, b.int(2), b.output(bl, 4))
		}, []*executor.Tensor{tensorOf[int32](t, []int{4}, 0, 1, 2, -3)},
			[]*executor.Tensor{tensorOf[bool](t, []int{4}), tensorOf[bool](t, []int{4})},
			[]*executor.Tensor{tensorOf[bool](t, []int{4}, false, true, true, false), tensorOf[bool](t, []int{4}, false, false, true, false)}},
		{"float64 in, float64 out (the staging casts)", func(b *gb) {
			x := b.input(f32, 3)
			b.op("aten.mul.Tensor", x, x, b.output(f32, 3))
		}, []*executor.Tensor{tensorOf[float64](t, []int{3}, 1.5, -2, 0.1)},
			[]*executor.Tensor{tensorOf[float64](t, []int{3})}, []*executor.Tensor{tensorOf[float64](t, []int{3}, 2.25, 4, float64(float32(0.1)*float32(0.1)))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b gb
			c.build(&b)
			runGraph(t, &b, c.ins, c.outs)
			for i, got := range c.outs {
				if !slices.Equal(got.Sizes(), c.want[i].Sizes()) || !slices.Equal(got.Bytes(), c.want[i].Bytes()) {
					t.Errorf("output %d: got %v %v, want %v", i, got, got.Bytes(), c.want[i].Bytes())
				}
			}
		})
	}
}
