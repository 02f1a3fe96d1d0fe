package xnngraph

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	fb "github.com/etgo/etgo/internal/fbverify"
)

// The convolution family: convolution, depthwise convolution and transposed convolution, which
// share one table (_XNNNodeConv: the geometry, then input, filter, optional bias, output).

var specConv = fb.NewTable("_XNNNodeConv", u32s("padding_top", "padding_right", "padding_bottom", "padding_left",
	"kernel_height", "kernel_width", "subsampling_height", "subsampling_width", "dilation_height", "dilation_width",
	"group_input_channels", "group_output_channels", "groups", "adjustment_height", "adjustment_width",
	"input1_id", "filter_id", "bias_id", "output_id", "flags"))

var layoutConv = layout{
	table: specConv,
	decode: func(tab flatbuffers.Table, n *Node) {
		var t schema.XNNNodeConv
		t.Init(tab.Bytes, tab.Pos)
		n.Conv = &ConvParams{PadTop: t.PaddingTop(), PadRight: t.PaddingRight(), PadBottom: t.PaddingBottom(), PadLeft: t.PaddingLeft(),
			KernelH: t.KernelHeight(), KernelW: t.KernelWidth(), StrideH: t.SubsamplingHeight(), StrideW: t.SubsamplingWidth(),
			DilationH: t.DilationHeight(), DilationW: t.DilationWidth(), GroupInputChannels: t.GroupInputChannels(),
			GroupOutputChannels: t.GroupOutputChannels(), Groups: t.Groups(), AdjustmentH: t.AdjustmentHeight(), AdjustmentW: t.AdjustmentWidth()}
		n.Inputs, n.Outputs, n.Flags = []uint32{t.Input1Id(), t.FilterId(), t.BiasId()}, []uint32{t.OutputId()}, t.Flags()
	},
	encode: func(b *flatbuffers.Builder, n *Node) (flatbuffers.UOffsetT, error) {
		c := n.Conv
		if c == nil {
			return 0, fmt.Errorf("%s has no convolution parameters", n.OpName())
		}
		return u32Table(b, c.PadTop, c.PadRight, c.PadBottom, c.PadLeft, c.KernelH, c.KernelW, c.StrideH, c.StrideW,
			c.DilationH, c.DilationW, c.GroupInputChannels, c.GroupOutputChannels, c.Groups, c.AdjustmentH, c.AdjustmentW,
			inID(n, 0), inID(n, 1), inID(n, 2), outID(n, 0), n.Flags), nil
	},
}

func init() {
	for _, op := range []schema.XNodeUnion{schema.XNodeUnionXNNConv2d, schema.XNodeUnionXNNDepthwiseConv2d, schema.XNodeUnionXNNConvTranspose2d} {
		register(nodeType{op: op, layout: layoutConv, roles: []string{"input", "filter", "bias"}, optional: []int{2}, outputRange: true,
			infer: oneOutput(inferConv)})
	}
}

// convExtent is a convolution or pooling's output extent, or an error when the (padded) input
// is smaller than the (dilated) window. Sizes come from an untrusted blob: the arithmetic is in
// int64, on operands below 2^32 (kernel sizes below 2^28, matched against a bounded filter).
func convExtent(what string, in int, padA, padB, kernel, stride, dilation uint32) (int, error) {
	eff := int64(dilation)*(int64(kernel)-1) + 1
	padded := int64(in) + int64(padA) + int64(padB)
	if padded < eff {
		return 0, fmt.Errorf("%s window of %d (size %d, dilation %d) exceeds the padded input's %d", what, eff, kernel, dilation, padded)
	}
	return int((padded-eff)/int64(stride) + 1), nil
}

// mul is a·b, saturated at 2^62 (so that comparing it with a real size stays meaningful).
func mul(a, b uint32) int64 {
	if p := uint64(a) * uint64(b); p < 1<<62 {
		return int64(p)
	}
	return 1 << 62
}

func inferConv(n *Node, in [][]int) ([]int, error) {
	x, w, b := in[0], in[1], in[2]
	cp := n.Conv
	if cp.KernelH == 0 || cp.KernelW == 0 || cp.StrideH == 0 || cp.StrideW == 0 || cp.DilationH == 0 || cp.DilationW == 0 {
		return nil, fmt.Errorf("kernel %dx%d, stride %dx%d, dilation %dx%d: each must be non-zero", cp.KernelH, cp.KernelW, cp.StrideH, cp.StrideW, cp.DilationH, cp.DilationW)
	}
	if cp.Groups == 0 || cp.GroupInputChannels == 0 || cp.GroupOutputChannels == 0 {
		return nil, fmt.Errorf("%d groups of %d input and %d output channels: each must be non-zero", cp.Groups, cp.GroupInputChannels, cp.GroupOutputChannels)
	}
	if len(x) != 4 {
		return nil, fmt.Errorf("input of shape %v is not 4-d NHWC", x)
	}
	if len(w) != 4 {
		return nil, fmt.Errorf("filter of shape %v is not 4-d", w)
	}
	N, H, W, C := x[0], x[1], x[2], x[3]
	OC := mul(cp.Groups, cp.GroupOutputChannels)
	kh, kw := int64(cp.KernelH), int64(cp.KernelW)
	if n.Op == schema.XNodeUnionXNNDepthwiseConv2d {
		// groups is the input channels, group_output_channels the channels each makes (the
		// multiplier); the official preprocess writes group_input_channels 1.
		if cp.GroupInputChannels != 1 || int64(C) != int64(cp.Groups) {
			return nil, fmt.Errorf("input of shape %v for a depthwise convolution of %d channels (%d input channels per group, want 1)", x, cp.Groups, cp.GroupInputChannels)
		}
		if int64(w[0]) != 1 || int64(w[1]) != kh || int64(w[2]) != kw || int64(w[3]) != OC {
			return nil, fmt.Errorf("filter of shape %v, the geometry needs [1 %d %d %d]", w, kh, kw, OC)
		}
	} else {
		if int64(C) != mul(cp.Groups, cp.GroupInputChannels) {
			return nil, fmt.Errorf("input of shape %v has %d channels, the geometry needs %d groups x %d", x, C, cp.Groups, cp.GroupInputChannels)
		}
		if int64(w[0]) != OC || int64(w[1]) != kh || int64(w[2]) != kw || int64(w[3]) != int64(cp.GroupInputChannels) {
			return nil, fmt.Errorf("filter of shape %v, the geometry needs [%d %d %d %d]", w, OC, kh, kw, cp.GroupInputChannels)
		}
	}
	if b != nil && int64(Numel(b)) != OC {
		return nil, fmt.Errorf("bias of shape %v for %d output channels", b, OC)
	}
	if n.Op == schema.XNodeUnionXNNConvTranspose2d {
		if cp.AdjustmentH >= cp.StrideH || cp.AdjustmentW >= cp.StrideW {
			return nil, fmt.Errorf("adjustment %dx%d must be below the stride %dx%d", cp.AdjustmentH, cp.AdjustmentW, cp.StrideH, cp.StrideW)
		}
		OH := int64(cp.StrideH)*int64(H-1) + int64(cp.AdjustmentH) + int64(cp.DilationH)*(kh-1) + 1 - int64(cp.PadTop) - int64(cp.PadBottom)
		OW := int64(cp.StrideW)*int64(W-1) + int64(cp.AdjustmentW) + int64(cp.DilationW)*(kw-1) + 1 - int64(cp.PadLeft) - int64(cp.PadRight)
		if H < 1 || W < 1 || OH < 1 || OW < 1 {
			return nil, fmt.Errorf("input of shape %v gives an empty %dx%d output (the padding exceeds the upsampled input)", x, OH, OW)
		}
		if OH*OW > int64(MaxValueElements) {
			return nil, fmt.Errorf("input of shape %v gives a %dx%d output", x, OH, OW)
		}
		return []int{N, int(OH), int(OW), int(OC)}, nil
	}
	OH, err := convExtent("kernel", H, cp.PadTop, cp.PadBottom, cp.KernelH, cp.StrideH, cp.DilationH)
	if err != nil {
		return nil, err
	}
	OW, err := convExtent("kernel", W, cp.PadLeft, cp.PadRight, cp.KernelW, cp.StrideW, cp.DilationW)
	if err != nil {
		return nil, err
	}
	return []int{N, OH, OW, int(OC)}, nil
}
