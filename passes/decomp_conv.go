package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Convolution front ends: transposed convolutions and convolutions with a padding mode
// ("same", "valid") are aten.convolution with every argument spelled out, as ATen's composite
// implementations call it.

func init() {
	registerRule(convTranspose, "aten.conv_transpose1d.default", "aten.conv_transpose2d.input", "aten.conv_transpose3d.input")
	registerRule(convPaddingMode, "aten.conv1d.padding", "aten.conv2d.padding", "aten.conv3d.padding")
}

// spatialInts reads an int-list argument expanded to k entries (a single int stands for all).
func spatialInts(n *ir.Node, name string, k int, def int64) ([]int64, error) {
	a := n.Arg(name)
	if a == nil || a.Kind == ir.ArgNone {
		return repeat(def, k), nil
	}
	switch a.Kind {
	case ir.ArgInt:
		return repeat(a.Int, k), nil
	case ir.ArgInts:
		if len(a.Ints) == 1 {
			return repeat(a.Ints[0], k), nil
		}
		if len(a.Ints) == k {
			return a.Ints, nil
		}
	}
	return nil, fmt.Errorf("argument %s: expected %d ints", name, k)
}

func convOperands(n *ir.Node) (x, w *ir.Value, bias ir.Arg, spatial int, err error) {
	if x, err = tensorIn(n, "input"); err != nil {
		return
	}
	if w, err = tensorIn(n, "weight"); err != nil {
		return
	}
	spatial = len(w.Meta.Sizes) - 2
	if spatial < 1 {
		err = fmt.Errorf("weight %s has rank %d", w.Name, len(w.Meta.Sizes))
		return
	}
	bias = ArgOr(n, "bias", None("bias"))
	return
}

// conv_transposeNd(x, w, b, stride, padding, output_padding, groups, dilation) is
// convolution(x, w, b, stride, padding, dilation, transposed=True, output_padding, groups).
func convTranspose(b *Builder, n *ir.Node) error {
	x, w, bias, k, err := convOperands(n)
	if err != nil {
		return err
	}
	lists := map[string][]int64{}
	for name, def := range map[string]int64{"stride": 1, "padding": 0, "output_padding": 0, "dilation": 1} {
		if lists[name], err = spatialInts(n, name, k, def); err != nil {
			return err
		}
	}
	x, unbatch := batchify(b, x, k)
	return b.Replace(unbatch(b.Call("aten.convolution.default", T("input", x), T("weight", w), bias,
		Is("stride", lists["stride"]...), Is("padding", lists["padding"]...), Is("dilation", lists["dilation"]...),
		Bo("transposed", true), Is("output_padding", lists["output_padding"]...), I("groups", n.IntArg("groups", 1)))))
}

// convNd.padding with padding="valid" pads nothing; "same" pads dilation·(kernel-1) per dim,
// split evenly, the odd element on the right by a constant_pad_nd of the input first (ATen's
// _convolution_mode).
func convPaddingMode(b *Builder, n *ir.Node) error {
	x, w, bias, k, err := convOperands(n)
	if err != nil {
		return err
	}
	stride, err := spatialInts(n, "stride", k, 1)
	if err != nil {
		return err
	}
	dilation, err := spatialInts(n, "dilation", k, 1)
	if err != nil {
		return err
	}
	x, unbatch := batchify(b, x, k)
	mode := "valid"
	if a := n.Arg("padding"); a != nil && a.Kind == ir.ArgString {
		mode = a.Str
	}
	padding := repeat(0, k)
	switch mode {
	case "valid":
	case "same":
		for _, s := range stride {
			if s != 1 {
				return fmt.Errorf(`padding="same" with a stride other than 1`)
			}
		}
		extra := make([]int64, 2*k)
		asymmetric := false
		for i := 0; i < k; i++ {
			total := dilation[i] * (w.Meta.Sizes[2+i].Size - 1)
			left := total / 2
			padding[i] = left
			if r := total - left; r != left {
				extra[2*(k-1-i)+1] = r - left
				asymmetric = true
			}
		}
		if asymmetric {
			x = b.Call("aten.constant_pad_nd.default", T("self", x), Is("pad", extra...))
		}
	default:
		return fmt.Errorf("padding mode %q", mode)
	}
	return b.Replace(unbatch(b.Call("aten.convolution.default", T("input", x), T("weight", w), bias,
		Is("stride", stride...), Is("padding", padding...), Is("dilation", dilation...),
		Bo("transposed", false), Is("output_padding", repeat(0, k)...), I("groups", n.IntArg("groups", 1)))))
}

func init() {
	registerRule(convN, "aten.conv1d.default", "aten.conv2d.default", "aten.conv3d.default")
}

// convN(x, w, b, stride, padding, dilation, groups) is convolution with every argument spelled
// out (transposed=False, output_padding 0); an unbatched input is unsqueezed to a batch of one
// and the result squeezed back, as ATen's conv front ends do.
func convN(b *Builder, n *ir.Node) error {
	x, w, bias, k, err := convOperands(n)
	if err != nil {
		return err
	}
	lists := map[string][]int64{}
	for name, def := range map[string]int64{"stride": 1, "padding": 0, "dilation": 1} {
		if lists[name], err = spatialInts(n, name, k, def); err != nil {
			return err
		}
	}
	unbatched := len(x.Meta.Sizes) == k+1
	if unbatched {
		x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	y := b.Call("aten.convolution.default", T("input", x), T("weight", w), bias,
		Is("stride", lists["stride"]...), Is("padding", lists["padding"]...), Is("dilation", lists["dilation"]...),
		Bo("transposed", false), Is("output_padding", repeat(0, k)...), I("groups", n.IntArg("groups", 1)))
	if unbatched {
		y = b.Call("aten.squeeze.dims", T("self", y), Is("dim", 0))
	}
	return b.Replace(y)
}
