package portable

import (
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(
		executor.Kernel{Name: "aten::pixel_shuffle.out", DTypes: shapeAllTypes, Fn: pixelShuffleOut},
		executor.Kernel{Name: "aten::pixel_unshuffle.out", DTypes: shapeAllTypes, Fn: pixelUnshuffleOut},
	)
}

// aten::pixel_shuffle.out(Tensor self, int upscale_factor, *, Tensor(a!) out):
// [*, C·r², H, W] → [*, C, H·r, W·r].
func pixelShuffleOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxPixelShuffleOut(args)
	if err != nil {
		return err
	}
	return pixelShuffle(a.Self, a.UpscaleFactor, a.Out, true)
}

// aten::pixel_unshuffle.out(Tensor self, int downscale_factor, *, Tensor(a!) out), the inverse:
// [*, C, H·r, W·r] → [*, C·r², H, W].
func pixelUnshuffleOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxPixelUnshuffleOut(args)
	if err != nil {
		return err
	}
	return pixelShuffle(a.Self, a.DownscaleFactor, a.Out, false)
}

// pixelShuffle is pixel_shuffle (shuffle true) or pixel_unshuffle by the factor f (argument 1);
// both are one permuted view of self.
func pixelShuffle(self *executor.Tensor, f int64, out *executor.Tensor, shuffle bool) error {
	name := map[bool]string{true: "upscale_factor", false: "downscale_factor"}[shuffle]
	if err := shapeSameDtype(self, out); err != nil {
		return err
	}
	if self.Dim() < 3 {
		return unbox.ArgError(0, "self", "needs at least 3 dimensions, got %d", self.Dim())
	}
	if f <= 0 || f > 1<<16 {
		return unbox.ArgError(1, name, "must be positive, got %d", f)
	}
	r := int(f)
	k := self.Dim()
	s, st := self.Sizes(), self.Strides()
	c, h, w := s[k-3], s[k-2], s[k-1]
	cs, hs, ws := st[k-3], st[k-2], st[k-1]
	lead, leadStrides := s[:k-3], st[:k-3]
	var v shapeView
	if shuffle {
		if c%(r*r) != 0 {
			return unbox.ArgError(0, "self", "%d channels are not divisible by %d²", c, r)
		}
		// self as [*, C, r, r, H, W], read as [*, C, H, r, W, r].
		oc := c / (r * r)
		v.sizes = append(append([]int{}, lead...), oc, h, r, w, r)
		v.strides = append(append([]int{}, leadStrides...), cs*r*r, hs, cs*r, ws, cs)
	} else {
		if h%r != 0 || w%r != 0 {
			return unbox.ArgError(0, "self", "height %d and width %d must be divisible by %d", h, w, r)
		}
		// self as [*, C, H, r, W, r], read as [*, C, r, r, H, W].
		oh, ow := h/r, w/r
		v.sizes = append(append([]int{}, lead...), c, r, r, oh, ow)
		v.strides = append(append([]int{}, leadStrides...), cs, hs, ws, hs*r, ws*r)
	}
	sizes := append([]int{}, lead...)
	if shuffle {
		sizes = append(sizes, c/(r*r), h*r, w*r)
	} else {
		sizes = append(sizes, c*r*r, h/r, w/r)
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	// out's [*, C', H', W'] as the view's dims: split H' and W' (shuffle) or C' (unshuffle).
	os := out.Strides()
	var dst []int
	if shuffle {
		dst = append(append([]int{}, os[:k-3]...), os[k-3], os[k-2]*r, os[k-2], os[k-1]*r, os[k-1])
	} else {
		dst = append(append([]int{}, os[:k-3]...), os[k-3]*r*r, os[k-3]*r, os[k-3], os[k-2], os[k-1])
	}
	shapeCopyView(out, 0, dst, self, v)
	return nil
}
