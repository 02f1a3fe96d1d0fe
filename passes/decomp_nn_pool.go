package passes

import (
	"fmt"
	"slices"

	"github.com/etgo/etgo/ir"
)

// Pooling front ends, as ATen's composite implementations call the core pools: the 1-d pools
// run as 2-d ones over an unsqueezed height of 1 (squeezed again), max_pool3d keeps the values of
// max_pool3d_with_indices, adaptive_avg_pool3d to 1×1×1 is a mean.

func init() {
	registerRule(avgPool1d, "aten.avg_pool1d.default")
	registerRule(maxPool1d(true), "aten.max_pool1d_with_indices.default")
	registerRule(maxPool1d(false), "aten.max_pool1d.default")
	registerRule(maxPool3d, "aten.max_pool3d.default")
	registerRule(adaptiveAvgPool1d, "aten.adaptive_avg_pool1d.default")
	registerRule(adaptiveAvgPool3d, "aten.adaptive_avg_pool3d.default")
}

// pool1dArgs reads a 1-d pool's kernel, stride (the kernel when empty), padding and dilation,
// each one int.
func pool1dArgs(n *ir.Node) (k, s, p, d int64, err error) {
	one := func(name string, def []int64) (int64, error) {
		v := n.IntsArg(name, def)
		if len(v) != 1 {
			return 0, fmt.Errorf("%s: %s must be one int, not %v", n.Target, name, v)
		}
		return v[0], nil
	}
	if k, err = one("kernel_size", nil); err != nil {
		return
	}
	stride := n.IntsArg("stride", nil)
	if len(stride) == 0 {
		stride = []int64{k}
	}
	if len(stride) != 1 {
		err = fmt.Errorf("%s: stride must be one int, not %v", n.Target, stride)
		return
	}
	s = stride[0]
	if p, err = one("padding", []int64{0}); err != nil {
		return
	}
	d, err = one("dilation", []int64{1})
	return
}

func unsqueezeH(b *Builder, x *ir.Value) *ir.Value {
	return b.Call("aten.unsqueeze.default", T("self", x), I("dim", -2))
}

func squeezeH(b *Builder, x *ir.Value) *ir.Value {
	return b.Call("aten.squeeze.dims", T("self", x), Is("dim", -2))
}

// avg_pool1d(x, k, s, p, ceil, count_include_pad) = avg_pool2d(x.unsqueeze(-2), [1,k], [1,s],
// [0,p], ceil, count_include_pad).squeeze(-2).
func avgPool1d(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	k, s, p, _, err := pool1dArgs(n)
	if err != nil {
		return err
	}
	out := b.Call("aten.avg_pool2d.default", T("self", unsqueezeH(b, x)), Is("kernel_size", 1, k), Is("stride", 1, s), Is("padding", 0, p),
		Bo("ceil_mode", n.BoolArg("ceil_mode", false)), Bo("count_include_pad", n.BoolArg("count_include_pad", true)), None("divisor_override"))
	return b.Replace(squeezeH(b, out))
}

// max_pool1d(_with_indices) is max_pool2d_with_indices over the unsqueezed input, both results
// squeezed (max_pool1d keeps the values only: ATen takes the with-indices path under export).
func maxPool1d(withIndices bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		k, s, p, d, err := pool1dArgs(n)
		if err != nil {
			return err
		}
		outs := b.CallN("aten.max_pool2d_with_indices.default", T("self", unsqueezeH(b, x)), Is("kernel_size", 1, k), Is("stride", 1, s),
			Is("padding", 0, p), Is("dilation", 1, d), Bo("ceil_mode", n.BoolArg("ceil_mode", false)))
		if b.Err() != nil {
			return b.Err()
		}
		values := squeezeH(b, outs[0])
		if !withIndices {
			return b.Replace(values)
		}
		return b.Replace(values, squeezeH(b, outs[1]))
	}
}

// max_pool3d is max_pool3d_with_indices with the same arguments, its values only.
func maxPool3d(b *Builder, n *ir.Node) error {
	x := self(b, n)
	args := []ir.Arg{T("self", x)}
	for _, name := range []string{"kernel_size", "stride", "padding", "dilation", "ceil_mode"} {
		if a := n.Arg(name); a != nil {
			args = append(args, Renamed(*a, name))
		}
	}
	outs := b.CallN("aten.max_pool3d_with_indices.default", args...)
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs[0])
}

// adaptive_avg_pool1d(x, [o]) = adaptive_avg_pool2d(x.unsqueeze(-2), [1, o]).squeeze(-2).
func adaptiveAvgPool1d(b *Builder, n *ir.Node) error {
	x := self(b, n)
	size := n.IntsArg("output_size", nil)
	if b.Err() != nil {
		return b.Err()
	}
	if len(size) != 1 {
		return fmt.Errorf("adaptive_avg_pool1d: output_size must be one int, not %v", size)
	}
	out := b.Call("aten.adaptive_avg_pool2d.default", T("self", unsqueezeH(b, x)), Is("output_size", 1, size[0]))
	return b.Replace(squeezeH(b, out))
}

// adaptive_avg_pool3d to 1×1×1 is a mean over the last three dims keeping them (ATen's
// shortcut), restrided to [c, 1, c, c, c] when the input is channels-last-3d (ATen's
// as_strided_); otherwise the core _adaptive_avg_pool3d.
func adaptiveAvgPool3d(b *Builder, n *ir.Node) error {
	x := self(b, n)
	size := n.IntsArg("output_size", nil)
	if b.Err() != nil {
		return b.Err()
	}
	if slices.Equal(size, []int64{1, 1, 1}) {
		mean := b.Call("aten.mean.dim", T("self", x), Is("dim", -1, -2, -3), Bo("keepdim", true))
		if sz := sizesOf(x.Meta); x.Meta.IsStatic() && channelsLast3d(sz, b.st.of(x)) {
			c := sz[1]
			mean = b.Call("aten.as_strided.default", T("self", mean), Is("size", sz[0], c, 1, 1, 1), Is("stride", c, 1, c, c, c))
		}
		return b.Replace(mean)
	}
	return b.Replace(b.Call("aten._adaptive_avg_pool3d.default", T("self", x), Is("output_size", size...)))
}
