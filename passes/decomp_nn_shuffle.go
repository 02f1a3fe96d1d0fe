package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Pixel and channel shuffles, as torch's references write them (torch/_refs/nn/functional):
// a view splitting the dims, a permute, a reshape back (a view, or a contiguous copy and a view
// when the permuted strides allow none), then a copy in the input's memory format.

func init() {
	registerRule(pixelShuffle(true), "aten.pixel_shuffle.default")
	registerRule(pixelShuffle(false), "aten.pixel_unshuffle.default")
	registerRule(channelShuffle, "aten.channel_shuffle.default", "aten.native_channel_shuffle.default")
}

// suggestedFormat is utils.suggest_memory_format: channels_last for a 4-d (5-d) tensor laid out
// so, else contiguous.
func suggestedFormat(x *ir.Value) int64 {
	order := x.Meta.Order()
	switch {
	case len(order) == 4 && order[1] == 2 && order[2] == 3 && order[3] == 1:
		return memoryFormatChannelsLast
	case len(order) == 5 && order[1] == 2 && order[2] == 3 && order[3] == 4 && order[4] == 1:
		return memoryFormatChannelsLast3d
	}
	return memoryFormatContiguous
}

func memoryFormat(f int64) ir.Arg {
	return ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: f, KwargOnly: true}
}

// pixel_shuffle(x, r): view(*B, C/r², r, r, H, W), permute to (*B, C, H, r, W, r), reshape to
// (*B, C/r², H·r, W·r), clone. pixel_unshuffle(x, r): view(*B, C, H/r, r, W/r, r), permute to
// (*B, C, r, r, H/r, W/r), reshape to (*B, C·r², H/r, W/r), clone.
func pixelShuffle(up bool) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		r := n.IntArg("upscale_factor", 0)
		if !up {
			r = n.IntArg("downscale_factor", 0)
		}
		if len(x.Meta.Sizes) < 3 || !x.Meta.IsStatic() || r <= 0 {
			return fmt.Errorf("%s of %s by %d", n.Target, x.Meta, r)
		}
		s := sizesOf(x.Meta)
		batch := s[:len(s)-3]
		c, h, w := s[len(s)-3], s[len(s)-2], s[len(s)-1]
		k := int64(len(batch))
		dims := identity(len(batch))
		var split, out []int64
		if up {
			split = append(append(split, batch...), c/(r*r), r, r, h, w)
			dims = append(dims, k, k+3, k+1, k+4, k+2)
			out = append(append(out, batch...), c/(r*r), h*r, w*r)
		} else {
			split = append(append(split, batch...), c, h/r, r, w/r, r)
			dims = append(dims, k, k+2, k+4, k+1, k+3)
			out = append(append(out, batch...), c*r*r, h/r, w/r)
		}
		v := b.Call("aten.view.default", T("self", x), Is("size", split...))
		v = b.Call("aten.permute.default", T("self", v), Is("dims", dims...))
		v = b.Call("aten.reshape.default", T("self", v), Is("shape", out...))
		return b.Replace(b.Call("aten.clone.default", T("self", v), memoryFormat(suggestedFormat(x))))
	}
}

// channel_shuffle(x, g): an empty x is viewed as itself; otherwise reshape(N, g, C/g, *DHW),
// transpose(1, 2), reshape back, contiguous.
func channelShuffle(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	g := n.IntArg("groups", 0)
	if len(x.Meta.Sizes) < 3 || !x.Meta.IsStatic() || g <= 0 || x.Meta.Sizes[1].Size%g != 0 {
		return fmt.Errorf("%s of %s in %d groups", n.Target, x.Meta, g)
	}
	s := sizesOf(x.Meta)
	if total, _ := numel(x.Meta.Sizes); total == 0 {
		return b.Replace(b.Call("aten.view.default", T("self", x), Is("size", s...)))
	}
	split := append([]int64{s[0], g, s[1] / g}, s[2:]...)
	dims := identity(len(split))
	dims[1], dims[2] = 2, 1
	v := b.Call("aten.reshape.default", T("self", x), Is("shape", split...))
	v = b.Call("aten.permute.default", T("self", v), Is("dims", dims...))
	v = b.Call("aten.reshape.default", T("self", v), Is("shape", s...))
	// contiguous(): the reshape copies when the transposed strides allow no view (its result is
	// then contiguous); when they do, the view's strides decide.
	dense := contiguous(split)
	permSizes, permStrides := make([]int64, len(split)), make([]int64, len(split))
	for i, d := range dims {
		permSizes[i], permStrides[i] = split[d], dense[d]
	}
	if st, ok := viewStrides(permSizes, permStrides, s); ok {
		want := contiguous(s)
		for i := range s {
			if s[i] != 1 && st[i] != want[i] {
				return b.Replace(b.Call("aten.clone.default", T("self", v), memoryFormat(memoryFormatContiguous)))
			}
		}
	}
	return b.Replace(v)
}
