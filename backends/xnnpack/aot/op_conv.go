package aot

import (
	"fmt"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The convolution family (ConvolutionConfig of gemm_configs.py, op_conv2d.py): 1-D and 2-D
// convolutions, transposed and depthwise ones included, channels-last as XNNPACK runs them,
// with a fused output clamp. Conv1dUnsqueezePass has made the 1-D ones 2-D before the visitor.
func init() {
	register(family{
		name: "convolution",
		configs: func(p *Partitioner) []*configs.Config {
			return []*configs.Config{gemmConfig("ConvolutionConfig", "convolution.default", "",
				gemm{weight: "weight", bias: "bias", act: "input", force: p.ForceNonStaticWeightsForF32Linear, padAbsorb: true}, checkConvRank)}
		},
		ops: []op{{target: targetConv, visit: (*preprocessor).visitConv, layout: layoutNHWC, takesActivation: true}},
	})
}

const targetConv = "aten.convolution.default"

func checkConvRank(_ *configs.Query, n *ir.Node) *partition.Decline {
	if k := n.TensorArg("weight").Rank(); k-2 > 2 {
		return partition.Declinef(partition.Geometry, "%d-D convolution; XNNPACK supports 1-D and 2-D", k-2)
	}
	return nil
}

func (p *preprocessor) visitConv(n *ir.Node) error {
	in, w, b, out := n.TensorArg("input"), n.TensorArg("weight"), n.TensorArg("bias"), n.FirstOutput()
	if in == nil || w == nil {
		return fmt.Errorf("convolution without input or weight")
	}
	if err := p.define(in, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	ks := w.Meta.Sizes
	if len(ks) != 4 {
		return fmt.Errorf("XNNPACK convolves 2-d only; the weight is %s", w.Meta)
	}
	groups := n.IntArg("groups", 1)
	transposed := n.BoolArg("transposed", false)
	if groups < 1 || ks[0].Size%groups != 0 {
		return fmt.Errorf("groups %d does not divide the weight %s", groups, w.Meta)
	}
	var gin, gout int64
	if transposed {
		gin, gout = ks[0].Size/groups, ks[1].Size
	} else {
		gin, gout = ks[1].Size, ks[0].Size/groups
	}
	depthwise := gin == 1 && gout%gin == 0 && !transposed
	g := 1
	if transposed {
		g = int(groups)
	}
	if err := p.define(w, tensorOpts{nhwc: true, swapIO: depthwise || transposed, groups: g, fp32: true}); err != nil {
		return err
	}
	if err := p.define(out, tensorOpts{nhwc: true}); err != nil {
		return err
	}
	bias := uint32(xnngraph.InvalidID)
	if b != nil {
		bo, err := p.biasOpts(b, in, w)
		if err != nil {
			return err
		}
		bo.fp32 = true // op_conv2d.py defines filter and bias with force_fp32
		if err := p.define(b, bo); err != nil {
			return err
		}
		bias = p.ids[b]
	}
	pair := func(name string, def int64) ([2]uint32, error) {
		v := n.IntsArg(name, nil)
		switch len(v) {
		case 0:
			v = []int64{def, def}
		case 1:
			v = []int64{v[0], v[0]}
		case 2:
		default:
			return [2]uint32{}, fmt.Errorf("%s %v: XNNPACK convolves 2-d only", name, v)
		}
		if v[0] < 0 || v[1] < 0 {
			return [2]uint32{}, fmt.Errorf("%s %v is negative", name, v)
		}
		return [2]uint32{uint32(v[0]), uint32(v[1])}, nil
	}
	var geometry [4][2]uint32
	for i, a := range [4]struct {
		name string
		def  int64
	}{{"stride", 1}, {"padding", 0}, {"dilation", 1}, {"output_padding", 0}} {
		var err error
		if geometry[i], err = pair(a.name, a.def); err != nil {
			return err
		}
	}
	stride, pad, dil, adj := geometry[0], geometry[1], geometry[2], geometry[3]
	op := schema.XNodeUnionXNNConv2d
	switch {
	case depthwise:
		op = schema.XNodeUnionXNNDepthwiseConv2d
	case transposed:
		op = schema.XNodeUnionXNNConvTranspose2d
	}
	p.node(n, xnngraph.Node{Op: op, Conv: &xnngraph.ConvParams{PadTop: pad[0], PadRight: pad[1], PadBottom: pad[0], PadLeft: pad[1],
		KernelH: uint32(ks[2].Size), KernelW: uint32(ks[3].Size), StrideH: stride[0], StrideW: stride[1],
		DilationH: dil[0], DilationW: dil[1], GroupInputChannels: uint32(gin), GroupOutputChannels: uint32(gout),
		Groups: uint32(groups), AdjustmentH: adj[0], AdjustmentW: adj[1]},
		Inputs: []uint32{p.ids[in], p.ids[w], bias}, Outputs: []uint32{p.ids[out]}})
	return nil
}
