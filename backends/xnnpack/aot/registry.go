package aot

import (
	"fmt"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
)

// The registry: everything this side knows of an XNNPACK operator family is stated once, in
// the family's file (op_*.go), and registered from there, so that adding a node type means
// writing one file, not editing a table in each pass. The partitioner reads its configs, the
// preprocess passes read an operator's layout and whether it takes or is a fusable activation,
// and the visitor dispatches on the registered target.

// opLayout is the memory layout an operator needs its tensors in, which
// ChannelsLastTaggedReshapePass reads (ExecuTorch's memory_sensitive_ops_nhwc and
// memory_sensitive_ops_nchw).
type opLayout uint8

const (
	// layoutAny operators run in the layout of their inputs (most elementwise and shape
	// operators); a mix of layouts is converted to one.
	layoutAny opLayout = iota
	// layoutNHWC operators read their first input channels-last and write channels-last (XNNPACK's
	// convolutions and poolings are channels-last only).
	layoutNHWC
	// layoutNCHW operators read every input in the default (contiguous) layout: their parameters
	// (a reshape's sizes, a linear's feature axis) are stated in it.
	layoutNCHW
	// layoutConversion operators are layout conversions themselves: the output is in the layout
	// their memory format names.
	layoutConversion
)

// visitor writes one Edge node as XNNPACK node(s) (ExecuTorch's NodeVisitor.define_node).
type visitor func(p *preprocessor, n *ir.Node) error

// op is what the preprocess knows of one Edge operator (a full Edge target such as
// "aten.convolution.default"): its visitor, and the facts its passes need.
type op struct {
	target string
	visit  visitor
	layout opLayout
	// takesActivation: the XNNPACK node has an output clamp, so FuseActivationPass folds a
	// fusable activation reading only this node into it (FuseActivationPass.FUSEABLE_OPS).
	takesActivation bool
	// outputRange makes the operator a clamp to [lo, hi] (XNNPACK's Clamp node).
	outputRange func(n *ir.Node) (lo, hi float32)
	// folds: FuseActivationPass folds this clamp into a producer that takes an activation
	// (FUSEABLE_ACTIVATIONS); it needs outputRange.
	folds bool
	// valuesOnly is the operator a node becomes when only its first output (the values) is
	// read, which RemoveGetItemPass rewrites it to.
	valuesOnly string
	// writesIndices: the visitor writes the indices too, so a node whose indices are read
	// stays as it is; otherwise RemoveGetItemPass refuses it.
	writesIndices bool
}

// family is one operator family's registration: the partitioner configs it contributes (made
// afresh for each partitioner, as ExecuTorch initialises its configs with the partitioner's
// options) and the operators its visitors write.
type family struct {
	name    string
	configs func(p *Partitioner) []*configs.Config
	ops     []op
}

var (
	families    []*family
	opsByTarget = map[string]*op{}
)

// register adds a family. It runs from the families' init functions, whose order (file names)
// decides nothing: configs are ordered by configOrder, operators are looked up by target.
func register(f family) {
	for i := range f.ops {
		o := &f.ops[i]
		if _, dup := opsByTarget[o.target]; dup || o.visit == nil || o.folds && o.outputRange == nil {
			// A static programming error, caught by any test of the package: a target visited
			// twice would silently keep whichever file sorts last.
			panic(fmt.Sprintf("aot: family %s: operator %s is registered twice or incompletely", f.name, o.target))
		}
		opsByTarget[o.target] = o
	}
	families = append(families, &f)
}

// lookupOp returns the registered operator of an Edge target, or nil.
func lookupOp(target string) *op { return opsByTarget[target] }

// layoutOf is the layout an Edge target needs; unregistered targets follow their inputs.
func layoutOf(target string) opLayout {
	if o := lookupOp(target); o != nil {
		return o.layout
	}
	return layoutAny
}

// configOrder is ALL_PARTITIONER_CONFIGS (backends/xnnpack/partition/config/__init__.py), in
// its order: the families register configs by name, this list places them (EluConfig is
// disabled there too). TestConfigOrder holds it to testdata/executorch_configs.txt.
var configOrder = []string{
	"AbsConfig", "AddConfig", "AddmmConfig", "AvgPoolingConfig", "BatchNormConfig", "BMMConfig",
	"CatConfig", "CeilConfig", "CloneConfig", "CloneDimOrderConfig", "ConstantPadConfig",
	"ConvolutionConfig", "ClampConfig", "DivConfig", "ExpConfig", "FloorConfig", "GeluConfig",
	"HardtanhConfig", "HardswishConfig", "LeakyReLUConfig", "LinearConfig", "LogConfig",
	"MaxDimConfig", "MaximumConfig", "MaxPool2dConfig", "MeanDimConfig", "MinimumConfig",
	"MMConfig", "MulConfig", "NegConfig", "PermuteConfig", "PowConfig", "PreluConfig",
	"ReciprocalSquareRootConfig", "ReLUConfig", "TanhConfig", "ToDimOrderCopyConfig",
	"SigmoidConfig", "SinConfig", "CosConfig", "SliceCopyConfig", "SoftmaxConfig",
	"SquareRootConfig", "SubConfig", "UnsqueezeCopyConfig", "UpsampleBilinear2dConfig",
	"ViewCopyConfig",
	"QuantizedPerTensorConfig", "DeQuantizedPerTensorConfig",
	"QuantizeAffineConfig", "DeQuantizeAffineConfig", "ChooseQParamsAffineConfig",
}

// partitionerConfigs are the registered configs made for p's options, in configOrder. A
// config registered under a name configOrder lacks is left out (TestConfigOrder fails).
func (p *Partitioner) partitionerConfigs() []*configs.Config {
	byName := map[string]*configs.Config{}
	for _, f := range families {
		if f.configs == nil {
			continue
		}
		for _, c := range f.configs(p) {
			byName[c.Name] = c
		}
	}
	out := make([]*configs.Config, 0, len(configOrder))
	for _, name := range configOrder {
		if c, ok := byName[name]; ok {
			out = append(out, c)
		}
	}
	return out
}

var (
	fOnly = []configs.Precision{configs.FP32}
	fs    = []configs.Precision{configs.FP32, configs.StaticQuant}
	fsd   = []configs.Precision{configs.FP32, configs.StaticQuant, configs.DynamicQuant}
)

// check is a config's own constraint check.
type check = func(q *configs.Query, n *ir.Node) *partition.Decline

func keep(c *configs.Config, aten string) *configs.Config { c.KeepWhole = aten; return c }

// generic is a config that claims the node alone, or, with static quantisation enabled and the
// node sitting between dq inputs and a q output (through one of fusedActs), the whole q/dq
// island (configs.NodeAndQuantDeps).
func generic(name, target string, precisions []configs.Precision, c check, fusedActs ...string) *configs.Config {
	return &configs.Config{Name: name, Target: target, Precisions: precisions, Check: c, FusedActivations: fusedActs}
}
