package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestEmbedding(t *testing.T) {
	f32 := executor.Float32
	w := shapeIota(t, 4, 3)
	shapeRun(t, "aten::embedding.out", []shapeCase{
		{"2-d indices", []any{w, tensor(t, []int64{3, 0, 1, 1}, 2, 2), -1, false, false, empty(t, f32, 2, 2, 3)}, []int{2, 2, 3},
			[]float64{9, 10, 11, 0, 1, 2, 3, 4, 5, 3, 4, 5}},
		{"int32 indices", []any{w, tensor(t, []int32{2}, 1), 0, false, false, empty(t, f32, 1, 3)}, []int{1, 3}, []float64{6, 7, 8}},
		{"0-d index", []any{w, tensor(t, []int64{1}), -1, false, false, empty(t, f32, 3)}, []int{3}, []float64{3, 4, 5}},
		{"no indices", []any{w, tensor(t, []int64{}, 0), -1, false, false, empty(t, f32, 0, 3)}, []int{0, 3}, nil},
		{"dynamic", []any{w, tensor(t, []int64{0, 3}, 2), -1, false, false, dynamic(t, f32, 8, 3)}, []int{2, 3}, []float64{0, 1, 2, 9, 10, 11}},
		{"column-major weight", []any{shapeOrdered(t, shapeIotaF32(12), []int{4, 3}, []uint8{1, 0}), tensor(t, []int64{1, 3}, 2), -1, false, false, empty(t, f32, 2, 3)},
			[]int{2, 3}, []float64{3, 4, 5, 9, 10, 11}},
		{"column-major out", []any{w, tensor(t, []int64{1, 3}, 2), -1, false, false, shapeOrderedEmpty(t, f32, []int{2, 3}, []uint8{1, 0})},
			[]int{2, 3}, []float64{3, 4, 5, 9, 10, 11}},
	})
	big := []int64{1 << 62, -(1<<53 + 1)}
	wi := tensor(t, big, 2, 1)
	out := empty(t, executor.Int64, 2, 1)
	if err := call(t, "aten::embedding.out", wi, tensor(t, []int64{1, 0}, 2), -1, false, false, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, []int64{big[1], big[0]}) {
		t.Fatalf("got %v", got)
	}
}

func TestEmbeddingErrors(t *testing.T) {
	w := shapeIota(t, 4, 3)
	out := empty(t, executor.Float32, 1, 3)
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []int64{4}, 1), -1, false, false, out, out), "out of range for 4 embeddings")
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []int64{-1}, 1), -1, false, false, out, out), "out of range")
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []float32{0}, 1), -1, false, false, out, out), "int64 or int32")
	wantErr(t, call(t, "aten::embedding.out", shapeIota(t, 12), tensor(t, []int64{0}, 1), -1, false, false, out, out), "must be 2-d")
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []int64{0, 1}, 2), -1, false, false, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []int64{0}, 1), -1, false, false, empty(t, executor.Float64, 1, 3), none), "keeps the dtype")
	wantErr(t, call(t, "aten::embedding.out", w, tensor(t, []int64{0}, 1), -1, false, out, out), "6 arguments")
}
