// Package example is the smallest complete etgo backend, as ExecuTorch's backends/example is:
// it shows what a backend provides on each side of the seam, and nothing more. Ahead of time
// (backends.Backend) it claims float32 elementwise add, sub, mul and relu whose operands all
// have the result's shape, with four configs of the configuration-based partitioner
// (partition/configs: the admission loop, the declines and the grouping into regions are
// the package's, as XNNPACK's are), and preprocesses a region into a blob that lists its operations; at run time
// (executor.Backend) it executes that list. It is registered nowhere: a program (its test)
// registers it in its own backends.Registry and executor.Registry, which is all a new backend
// needs.
//
// Blob ("EX01"): uint32 counts of values, inputs, outputs and ops, then per op its code and
// three value indexes (a, b, out; b unused by relu), then the input and output value indexes,
// all little-endian. Every value is a float32 tensor of numel elements (a uint32 after the
// counts). The blob is untrusted at Init: every count and index is bounded.
package example

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/partition/configs"
	"github.com/etgo/etgo/pte"
)

// BackendID is the id its delegates carry and its runtime side registers under.
const BackendID = "ExampleBackend"

const (
	opAdd uint32 = iota + 1
	opSub
	opMul
	opRelu
)

var ops = map[string]uint32{"aten.add.Tensor": opAdd, "aten.sub.Tensor": opSub, "aten.mul.Tensor": opMul, "aten.relu.default": opRelu}

// AheadOfTime is the backend's ahead-of-time contract.
func AheadOfTime() backends.Backend {
	return backends.Backend{
		Name: "example", ID: BackendID,
		NewPartitioner: func(o backends.Options) partition.Partitioner { return NewPartitioner(o.PerOp) },
		Preprocess:     Preprocess,
	}
}

// NewPartitioner claims the operations the blob format has: a config per operation, and the
// constraints the blob format puts on all of them.
func NewPartitioner(perOp bool) *configs.Partitioner {
	fp32 := []configs.Precision{configs.FP32}
	return configs.New(partition.DelegationSpec{BackendID: BackendID}, []*configs.Config{
		{Name: "AddConfig", Target: "add.Tensor", Precisions: fp32, Check: alphaOne},
		{Name: "SubConfig", Target: "sub.Tensor", Precisions: fp32, Check: alphaOne},
		{Name: "MulConfig", Target: "mul.Tensor", Precisions: fp32},
		{Name: "ReLUConfig", Target: "relu.default", Precisions: fp32},
	}, configs.Options{Backend: "the example backend", PerOp: perOp, Common: common})
}

// common: the blob has float32 tensors of static, equal sizes only (no broadcasting).
func common(_ *configs.Config, n *ir.Node) *partition.Decline {
	if len(n.Outputs) != 1 || n.Outputs[0] == nil || n.Outputs[0].Meta == nil || !n.Outputs[0].Meta.IsStatic() || n.Outputs[0].Meta.DType != ir.Float32 {
		return &partition.Decline{Reason: partition.UnsupportedDType, Detail: "one static float32 result only"}
	}
	out := n.Outputs[0].Meta
	for _, name := range []string{"self", "other"} {
		v := n.TensorArg(name)
		if v == nil {
			if name == "other" && n.Target == "aten.relu.default" {
				continue
			}
			return &partition.Decline{Reason: partition.NonTensorArgument, Detail: name + " is not a tensor"}
		}
		if v.Meta == nil || v.Meta.DType != ir.Float32 || !slices.Equal(v.Meta.Sizes, out.Sizes) {
			return &partition.Decline{Reason: partition.Geometry, Detail: "operands must be float32 of the result's shape (no broadcasting)"}
		}
	}
	return nil
}

// alphaOne: the blob's add and sub have no alpha.
func alphaOne(_ *configs.Query, n *ir.Node) *partition.Decline {
	if n.ScalarArg("alpha", 1) != 1 {
		return &partition.Decline{Reason: partition.NonTensorArgument, Detail: "alpha must be 1"}
	}
	return nil
}

// Preprocess writes a region as an EX01 blob.
func Preprocess(parent *ir.Graph, d *partition.Delegate) ([]byte, []pte.NamedBlob, error) {
	g, err := d.Program(parent)
	if err != nil {
		return nil, nil, err
	}
	index := map[*ir.Value]uint32{}
	var numel []uint32
	id := func(v *ir.Value) uint32 {
		if i, ok := index[v]; ok {
			return i
		}
		n := uint32(1)
		for _, s := range v.Meta.Sizes {
			n *= uint32(s.Size)
		}
		index[v] = uint32(len(numel))
		numel = append(numel, n)
		return index[v]
	}
	var ins, outs []uint32
	for _, in := range g.Inputs {
		if in.Kind != ir.UserInput {
			return nil, nil, fmt.Errorf("example: region reads %s, a %v; it takes activations only", in.Value.Name, in.Kind)
		}
		ins = append(ins, id(in.Value))
	}
	var body []uint32
	for _, n := range g.Nodes {
		code, ok := ops[n.Target]
		if !ok {
			return nil, nil, fmt.Errorf("example: node %s (%s) is not an operation the example backend has", n.Name, n.Target)
		}
		a, b := id(n.TensorArg("self")), uint32(0)
		if o := n.TensorArg("other"); o != nil {
			b = id(o)
		}
		body = append(body, code, a, b, id(n.Outputs[0]))
	}
	for _, o := range g.Outputs {
		outs = append(outs, id(o.Value))
	}
	words := []uint32{uint32(len(numel)), uint32(len(ins)), uint32(len(outs)), uint32(len(body) / 4)}
	words = slices.Concat(words, numel, body, ins, outs)
	blob := []byte("EX01")
	for _, w := range words {
		blob = binary.LittleEndian.AppendUint32(blob, w)
	}
	return blob, nil, nil
}

// Backend is the runtime side.
type Backend struct{}

type program struct {
	numel     []uint32
	ops       [][4]uint32
	ins, outs []uint32
}

// maxValues bounds a blob's tables (a toy backend's, but untrusted all the same).
const maxValues, maxElements = 1 << 16, 1 << 26

var errBlob = errors.New("invalid example blob")

func (Backend) IsAvailable() bool { return true }

func (Backend) Init(_ *executor.BackendInitContext, processed []byte, _ []executor.CompileSpec) (executor.DelegateHandle, error) {
	if len(processed) < 20 || string(processed[:4]) != "EX01" {
		return nil, fmt.Errorf("%w: no EX01 header", errBlob)
	}
	w := processed[4:]
	if len(w)%4 != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the header is not whole words", errBlob, len(w))
	}
	word := func(i int) uint32 { return binary.LittleEndian.Uint32(w[4*i:]) }
	nv, ni, no, nop := word(0), word(1), word(2), word(3)
	if nv > maxValues || ni > nv || no > nv || nop > maxValues || uint64(len(w)/4) != 4+uint64(nv)+4*uint64(nop)+uint64(ni)+uint64(no) {
		return nil, fmt.Errorf("%w: %d values, %d inputs, %d outputs, %d ops do not fit %d words", errBlob, nv, ni, no, nop, len(w)/4)
	}
	p := &program{}
	k := 4
	for range nv {
		if n := word(k); n == 0 || n > maxElements {
			return nil, fmt.Errorf("%w: a value of %d elements", errBlob, n)
		}
		p.numel = append(p.numel, word(k))
		k++
	}
	for range nop {
		op := [4]uint32{word(k), word(k + 1), word(k + 2), word(k + 3)}
		k += 4
		if op[0] < opAdd || op[0] > opRelu || op[1] >= nv || op[2] >= nv || op[3] >= nv ||
			p.numel[op[1]] != p.numel[op[3]] || (op[0] != opRelu && p.numel[op[2]] != p.numel[op[3]]) {
			return nil, fmt.Errorf("%w: op %v", errBlob, op)
		}
		p.ops = append(p.ops, op)
	}
	for range ni {
		p.ins = append(p.ins, word(k))
		k++
	}
	for range no {
		p.outs = append(p.outs, word(k))
		k++
	}
	for _, v := range slices.Concat(p.ins, p.outs) {
		if v >= nv {
			return nil, fmt.Errorf("%w: external value %d of %d", errBlob, v, nv)
		}
	}
	return p, nil
}

func (Backend) Execute(ctx *executor.BackendExecutionContext, h executor.DelegateHandle, args []*executor.EValue) error {
	p := h.(*program)
	if len(args) != len(p.ins)+len(p.outs) {
		return fmt.Errorf("example: %d arguments for %d inputs and %d outputs", len(args), len(p.ins), len(p.outs))
	}
	vals := make([][]float32, len(p.numel))
	for i, v := range slices.Concat(p.ins, p.outs) {
		if args[i].Tag != executor.TagTensor || args[i].Tensor.ScalarType() != executor.Float32 || args[i].Tensor.Numel() != int(p.numel[v]) {
			return fmt.Errorf("example: argument %d is not a float32 tensor of %d elements", i, p.numel[v])
		}
		vals[v] = executor.Data[float32](args[i].Tensor)
	}
	for i, n := range p.numel {
		if vals[i] == nil {
			vals[i] = make([]float32, n)
		}
	}
	for _, op := range p.ops {
		a, b, out := vals[op[1]], vals[op[2]], vals[op[3]]
		for j := range out {
			switch op[0] {
			case opAdd:
				out[j] = a[j] + b[j]
			case opSub:
				out[j] = a[j] - b[j]
			case opMul:
				out[j] = a[j] * b[j]
			case opRelu:
				out[j] = max(a[j], 0) // Go's max keeps a NaN, as ATen's relu does
			}
		}
	}
	return nil
}

func (Backend) Destroy(executor.DelegateHandle) {}
