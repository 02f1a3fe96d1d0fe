package configs

import (
	"strings"

	"github.com/etgo/etgo/ir"
)

// The quantisation vocabulary of ExecuTorch's XNNPACK quant_utils.py, keyed by formatted target
// (namespace dropped), so PT2E's quantized_decomposed operators and torchao's affine ones read
// alike.
var (
	quantOps = map[string]bool{
		"quantize_per_tensor.tensor": true, "quantize_per_tensor.default": true,
		"quantize_per_channel.default": true, "quantize_per_channel_group.default": true,
		"quantize_per_token.default": true, "quantize_affine.default": true,
	}
	dequantOps = map[string]bool{
		"dequantize_per_tensor.tensor": true, "dequantize_per_tensor.default": true,
		"dequantize_per_channel.default": true, "dequantize_per_channel_group.default": true,
		"dequantize_per_token.default": true, "dequantize_affine.default": true,
	}
	qparamOps = map[string]bool{
		"choose_qparams.tensor": true, "choose_qparams_per_token_asymmetric.default": true,
		"choose_qparams_affine.default": true,
	}
)

// IsDequantize reports a dequantize operator of any quantisation scheme (is_dequant).
func IsDequantize(n *ir.Node) bool { return n != nil && dequantOps[FormatTarget(n.Target)] }

// IsQuantize reports a quantize operator of any quantisation scheme (is_quant).
func IsQuantize(n *ir.Node) bool { return n != nil && quantOps[FormatTarget(n.Target)] }

// IsQParams reports an operator choosing quantisation parameters at run time (is_qparam).
func IsQParams(n *ir.Node) bool { return n != nil && qparamOps[FormatTarget(n.Target)] }

// IsAffine reports torchao's quantize_affine / dequantize_affine (is_affine_qdq).
func IsAffine(n *ir.Node) bool {
	return (IsQuantize(n) || IsDequantize(n)) && strings.Contains(n.Target, "quantize_affine")
}

// IsPerChannel is is_per_channel: a per-channel q/dq, or an affine one whose blocks are groups
// of one output channel.
func IsPerChannel(n *ir.Node) bool {
	if !IsQuantize(n) && !IsDequantize(n) {
		return false
	}
	return strings.Contains(n.Target, "per_channel") || IsPerChannelGroup(n)
}

// IsPerTensor is is_per_tensor.
func IsPerTensor(n *ir.Node) bool {
	if !IsQuantize(n) && !IsDequantize(n) {
		return false
	}
	return strings.Contains(n.Target, "per_tensor") && !IsPerChannel(n)
}

// IsPerChannelGroup is is_per_channel_group: per_channel_group q/dq, or an affine q/dq of a 2-d
// static tensor with block size [1, g] and one scale per block.
func IsPerChannelGroup(n *ir.Node) bool {
	if !IsQuantize(n) && !IsDequantize(n) {
		return false
	}
	if strings.Contains(n.Target, "per_channel_group") {
		return true
	}
	if !IsAffine(n) {
		return false
	}
	in, scale := n.TensorArg("input"), n.TensorArg("scale")
	block := n.IntsArg("block_size", nil)
	if in == nil || scale == nil || in.Meta == nil || scale.Meta == nil || len(block) != 2 || block[0] != 1 {
		return false
	}
	inN, okIn := staticNumel(in.Meta.Sizes)
	scN, okSc := staticNumel(scale.Meta.Sizes)
	return okIn && okSc && inN == block[1]*scN
}

func staticNumel(sizes []ir.Dim) (int64, bool) {
	n := int64(1)
	for _, d := range sizes {
		if !d.IsStatic() {
			return 0, false
		}
		n *= d.Size
	}
	return n, true
}

// QParamArgs are a q/dq node's scale and zero-point arguments as values (nil when they are
// numbers, as in per-tensor static quantisation).
func QParamArgs(n *ir.Node) (scale, zeroPoint *ir.Value) {
	pick := func(names ...string) *ir.Value {
		for _, name := range names {
			if v := n.TensorArg(name); v != nil {
				return v
			}
		}
		return nil
	}
	return pick("scale", "scales"), pick("zero_point", "zero_points")
}

// IsDynamicQDQ is is_dynamic_qdq: a q/dq whose scale and zero point are results of a
// choose-qparams node (through its getitems, which etgo's graph has as the node's outputs).
func IsDynamicQDQ(n *ir.Node) bool {
	if !IsQuantize(n) && !IsDequantize(n) {
		return false
	}
	s, z := QParamArgs(n)
	return s != nil && z != nil && IsQParams(s.Producer) && IsQParams(z.Producer)
}
