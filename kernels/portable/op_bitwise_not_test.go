package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values were checked with torch.bitwise_not.
func TestBitwiseNot(t *testing.T) {
	compareRun(t, []compareCase{
		{"int16", "aten::bitwise_not.out", []any{tensor(t, []int16{0, 5, -1}, 3)}, empty(t, executor.Int16, 3), []int{3}, []float64{-1, -6, 0}},
		{"uint8", "aten::bitwise_not.out", []any{tensor(t, []uint8{0, 5}, 2)}, empty(t, executor.Uint8, 2), []int{2}, []float64{255, 250}},
		{"int64 2-d", "aten::bitwise_not.out", []any{tensor(t, []int64{1 << 40, 0, 7, -8}, 2, 2)}, empty(t, executor.Int64, 2, 2), []int{2, 2}, []float64{-(1 << 40) - 1, -1, -8, 7}},
		{"bool", "aten::bitwise_not.out", []any{tensor(t, []bool{true, false}, 2)}, empty(t, executor.Bool, 2), []int{2}, []float64{0, 1}},
		{"empty", "aten::bitwise_not.out", []any{tensor(t, []int32{}, 0)}, empty(t, executor.Int32, 0), []int{0}, []float64{}},
		{"dynamic out", "aten::bitwise_not.out", []any{tensor(t, []int8{127}, 1)}, dynamic(t, executor.Int8, 3), []int{1}, []float64{-128}},
	})
	wantErr(t, call(t, "aten::bitwise_not.out", tensor(t, []float32{1}, 1), empty(t, executor.Float32, 1), none), "not implemented for float32")
	wantErr(t, call(t, "aten::bitwise_not.out", tensor(t, []int32{1}, 1), empty(t, executor.Int64, 1), none), "want self's int32")
	wantErr(t, call(t, "aten::bitwise_not.out", tensor(t, []int32{1}, 1), empty(t, executor.Int32, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::bitwise_not.out", tensor(t, []int32{1}, 1), empty(t, executor.Int32, 1)), "2 arguments")
}
