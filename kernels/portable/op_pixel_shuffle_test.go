package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.pixel_shuffle / pixel_unshuffle (torch 2.15) on arange inputs.
func TestPixelShuffle(t *testing.T) {
	shapeRun(t, "aten::pixel_shuffle.out", []shapeCase{
		{"r=2", []any{shapeIota(t, 2, 8, 2, 3), 2, empty(t, executor.Float32, 2, 2, 4, 6)}, []int{2, 2, 4, 6}, []float64{
			0, 6, 1, 7, 2, 8, 12, 18, 13, 19, 14, 20, 3, 9, 4, 10, 5, 11, 15, 21, 16, 22, 17, 23,
			24, 30, 25, 31, 26, 32, 36, 42, 37, 43, 38, 44, 27, 33, 28, 34, 29, 35, 39, 45, 40, 46, 41, 47,
			48, 54, 49, 55, 50, 56, 60, 66, 61, 67, 62, 68, 51, 57, 52, 58, 53, 59, 63, 69, 64, 70, 65, 71,
			72, 78, 73, 79, 74, 80, 84, 90, 85, 91, 86, 92, 75, 81, 76, 82, 77, 83, 87, 93, 88, 94, 89, 95}},
		{"r=1 is a copy", []any{shapeIota(t, 1, 2, 1, 2), 1, empty(t, executor.Float32, 1, 2, 1, 2)}, []int{1, 2, 1, 2}, shapeSeq(0, 4)},
	})
	shapeRun(t, "aten::pixel_unshuffle.out", []shapeCase{
		{"r=2", []any{shapeIota(t, 1, 2, 4, 6), 2, empty(t, executor.Float32, 1, 8, 2, 3)}, []int{1, 8, 2, 3}, []float64{
			0, 2, 4, 12, 14, 16, 1, 3, 5, 13, 15, 17, 6, 8, 10, 18, 20, 22, 7, 9, 11, 19, 21, 23,
			24, 26, 28, 36, 38, 40, 25, 27, 29, 37, 39, 41, 30, 32, 34, 42, 44, 46, 31, 33, 35, 43, 45, 47}},
		{"channels-last out", []any{shapeIota(t, 1, 1, 2, 2), 2, shapeOrderedEmpty(t, executor.Float32, []int{1, 4, 1, 1}, channelsLast)}, []int{1, 4, 1, 1}, shapeSeq(0, 4)},
	})
	wantErr(t, call(t, "aten::pixel_shuffle.out", shapeIota(t, 1, 3, 2, 2), 2, empty(t, executor.Float32, 1, 0, 4, 4), none), "not divisible")
	wantErr(t, call(t, "aten::pixel_unshuffle.out", shapeIota(t, 1, 1, 3, 2), 2, empty(t, executor.Float32, 1, 4, 1, 1), none), "must be divisible")
	wantErr(t, call(t, "aten::pixel_shuffle.out", shapeIota(t, 4, 2), 2, empty(t, executor.Float32, 1), none), "at least 3 dimensions")
	wantErr(t, call(t, "aten::pixel_shuffle.out", shapeIota(t, 1, 4, 1, 1), 0, empty(t, executor.Float32, 1, 4, 1, 1), none), "must be positive")
}
