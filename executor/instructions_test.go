package executor_test

import (
	"context"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/pte/schema"
)

// controlProgram builds a method that exercises every instruction kind:
//
//	0: KernelCall add(x, one) -> tmp
//	1: JumpFalseCall(cond=flag, to 3)   -- flag is false: skip instruction 2
//	2: KernelCall add(tmp, tmp) -> tmp  (skipped; run, it would give 2x+2)
//	3: FreeCall(x)
//	4: MoveCall(tmp -> out)
//
// so forward(x) = x + 1 when the traced flag is false.
func controlProgram(t *testing.T) *executor.Program {
	t.Helper()
	f32 := schema.ScalarTypeFLOAT
	planned := func(off uint32) *pte.Tensor {
		return &pte.Tensor{ScalarType: f32, Sizes: []int32{2}, DimOrder: []uint8{0}, AllocationInfo: &pte.AllocationDetails{MemoryID: 1, MemoryOffsetLow: off}}
	}
	plan := &pte.ExecutionPlan{
		Name: "forward",
		Values: []pte.EValue{
			planned(0),           // 0: x
			planned(16),          // 1: out
			planned(32),          // 2: tmp
			pte.Bool{Val: false}, // 3: flag
			pte.Int{Val: 1},      // 4: alpha
			&pte.Tensor{ScalarType: f32, Sizes: []int32{}, DimOrder: []uint8{}, DataBufferIdx: 1}, // 5: one
		},
		Inputs:  []int32{0},
		Outputs: []int32{1},
		Chains: []pte.Chain{{Inputs: []int32{}, Outputs: []int32{}, Instructions: []pte.Instruction{
			pte.KernelCall{OpIndex: 0, Args: []int32{0, 5, 4, 2, 2}},
			pte.JumpFalseCall{CondValueIndex: 3, DestinationInstruction: 3},
			pte.KernelCall{OpIndex: 0, Args: []int32{2, 2, 4, 2, 2}},
			pte.FreeCall{ValueIndex: 0},
			pte.MoveCall{MoveFrom: 2, MoveTo: 1},
		}}},
		Operators:           []pte.Operator{{Name: "aten::add", Overload: "out"}},
		Delegates:           []pte.BackendDelegate{},
		NonConstBufferSizes: []int64{0, 48},
	}
	one := []byte{0, 0, 0x80, 0x3f} // float32 1.0
	b, err := pte.Write(&pte.Contents{Program: &pte.Program{ExecutionPlans: []*pte.ExecutionPlan{plan}}, Constants: [][]byte{{}, one}}, pte.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEveryInstructionKind(t *testing.T) {
	m, err := controlProgram(t).LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	x, _ := executor.FromSlice([]float32{1.5, -2}, 2)
	outs, err := m.Run(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := executor.Values[float32](outs[0])
	if got[0] != 2.5 || got[1] != -1 {
		t.Errorf("forward(x) = %v, want x+1 = [2.5 -1] (the jump skips the doubling)", got)
	}
}
