package passes

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/etgo/etgo/ir"
)

// ScalarToTensor turns a Python number passed where a Tensor overload takes a tensor
// (`x * 0.5` exports as aten.mul.Tensor(x, 0.5)) into a lifted 0-d tensor constant, as
// ExecuTorch's ScalarToTensorPass does during to_edge: torch.tensor(0.5) is float32, an int is
// int64, a bool is bool. The out-variant kernels then receive the tensor their schema names, and
// a delegate that claims the node receives the constant as a runtime input.
type ScalarToTensor struct{}

func (ScalarToTensor) Name() string { return "ScalarToTensor" }

func (ScalarToTensor) Run(g *ir.Graph) (string, error) {
	n := 0
	for _, node := range g.Nodes {
		if !strings.HasSuffix(node.Target, ".Tensor") && !strings.HasSuffix(node.Target, ".Tensor_mode") {
			continue
		}
		a := node.Arg("other")
		if a == nil {
			continue
		}
		var dtype ir.DType
		var data []byte
		switch a.Kind {
		case ir.ArgFloat:
			dtype, data = ir.Float32, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(a.Float)))
		case ir.ArgInt:
			dtype, data = ir.Int64, binary.LittleEndian.AppendUint64(nil, uint64(a.Int))
		case ir.ArgBool:
			b := byte(0)
			if a.Bool {
				b = 1
			}
			dtype, data = ir.Bool, []byte{b}
		default:
			continue
		}
		v := liftConstant(g, dtype, data)
		*a = ir.Arg{Name: a.Name, Kind: ir.ArgTensor, Values: []*ir.Value{v}, KwargOnly: a.KwargOnly}
		n++
	}
	if n == 0 {
		return "", nil
	}
	return fmt.Sprintf("lifted %d scalar operand(s) to tensor constants", n), nil
}
