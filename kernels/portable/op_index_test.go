package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// indexCall runs aten::index.Tensor_out with indices as an OptionalTensorList (nil = None), as
// a program encodes it.
func indexCall(t *testing.T, self *executor.Tensor, indices []*executor.Tensor, out *executor.Tensor) error {
	t.Helper()
	l := &executor.EValue{Tag: executor.TagOptionalTensorList}
	for _, x := range indices {
		if x == nil {
			l.TensorRefs = append(l.TensorRefs, nil)
		} else {
			l.TensorRefs = append(l.TensorRefs, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
		}
	}
	o := &executor.EValue{Tag: executor.TagTensor, Tensor: out}
	return indexTensorOut(&executor.KernelContext{}, []*executor.EValue{{Tag: executor.TagTensor, Tensor: self}, l, o, o})
}

func TestIndexTensor(t *testing.T) {
	f32 := executor.Float32
	a := shapeIota(t, 2, 3, 4)
	i64 := func(v []int64, s ...int) *executor.Tensor { return tensor(t, v, s...) }
	tests := []struct {
		name    string
		self    *executor.Tensor
		indices []*executor.Tensor
		out     *executor.Tensor
		sizes   []int
		want    []float64
	}{
		{"first dim", a, []*executor.Tensor{i64([]int64{1, 0}, 2)}, empty(t, f32, 2, 3, 4), []int{2, 3, 4}, append(shapeSeq(12, 24), shapeSeq(0, 12)...)},
		{"None then negative", a, []*executor.Tensor{nil, i64([]int64{-1, 0}, 2)}, empty(t, f32, 2, 2, 4), []int{2, 2, 4},
			[]float64{8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 12, 13, 14, 15}},
		{"broadcast adjacent", a, []*executor.Tensor{nil, i64([]int64{0, 2}, 2, 1), i64([]int64{1, 3}, 2)}, empty(t, f32, 2, 2, 2), []int{2, 2, 2},
			[]float64{1, 3, 9, 11, 13, 15, 21, 23}},
		{"non-adjacent goes first", a, []*executor.Tensor{i64([]int64{1, 0}, 2), nil, i64([]int64{3, 0}, 2)}, empty(t, f32, 2, 3), []int{2, 3},
			[]float64{15, 19, 23, 0, 4, 8}},
		{"2-d bool mask", a, []*executor.Tensor{tensor(t, []bool{true, false, true, false, true, false}, 2, 3)}, empty(t, f32, 3, 4), []int{3, 4},
			[]float64{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}},
		{"bool mask after None", a, []*executor.Tensor{nil, tensor(t, []bool{true, false, true}, 3)}, empty(t, f32, 2, 2, 4), []int{2, 2, 4},
			[]float64{0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23}},
		{"int32 broadcast with int64", a, []*executor.Tensor{tensor(t, []int32{0, 1, 1}, 3), i64([]int64{2}, 1)}, empty(t, f32, 3, 4), []int{3, 4},
			[]float64{8, 9, 10, 11, 20, 21, 22, 23, 20, 21, 22, 23}},
		{"0-d index", a, []*executor.Tensor{i64([]int64{1})}, empty(t, f32, 3, 4), []int{3, 4}, shapeSeq(12, 24)},
		{"0-d index last dim", a, []*executor.Tensor{nil, nil, i64([]int64{2})}, empty(t, f32, 2, 3), []int{2, 3}, []float64{2, 6, 10, 14, 18, 22}},
		{"all None", a, []*executor.Tensor{nil}, empty(t, f32, 2, 3, 4), []int{2, 3, 4}, shapeSeq(0, 24)},
		{"empty index", a, []*executor.Tensor{i64([]int64{}, 0)}, empty(t, f32, 0, 3, 4), []int{0, 3, 4}, nil},
		{"all-false mask", a, []*executor.Tensor{tensor(t, []bool{false, false}, 2)}, dynamic(t, f32, 2, 3, 4), []int{0, 3, 4}, nil},
		{"int64 values", tensor(t, []int64{1 << 62, 5, -(1 << 62)}, 3), []*executor.Tensor{i64([]int64{2, 0}, 2)}, empty(t, executor.Int64, 2), []int{2}, nil},
		{"channels-last self", shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), []*executor.Tensor{nil, i64([]int64{2, 0}, 2)},
			empty(t, f32, 1, 2, 2, 2), []int{1, 2, 2, 2}, []float64{8, 9, 10, 11, 0, 1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := indexCall(t, tc.self, tc.indices, tc.out); err != nil {
				t.Fatal(err)
			}
			if tc.want == nil && tc.out.ScalarType() == executor.Int64 {
				got, _ := executor.Values[int64](tc.out)
				if !slices.Equal(got, []int64{-(1 << 62), 1 << 62}) {
					t.Fatalf("got %v", got)
				}
				return
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
	// The harness's TensorList form works too.
	out := empty(t, f32, 2, 3, 4)
	if err := call(t, "aten::index.Tensor_out", a, []*executor.Tensor{i64([]int64{1, 0}, 2)}, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{2, 3, 4}, append(shapeSeq(12, 24), shapeSeq(0, 12)...))
}

func TestIndexTensorErrors(t *testing.T) {
	a := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 2, 3)
	i64 := func(v ...int64) *executor.Tensor { return tensor(t, v, len(v)) }
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(2)}, out), "out of bounds for dimension 0 with size 2")
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(-3)}, out), "out of bounds")
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(0), i64(0), i64(0)}, out), "too many indices")
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(0, 1), i64(0, 1, 2)}, out), "do not broadcast")
	wantErr(t, indexCall(t, a, []*executor.Tensor{tensor(t, []bool{true, false, true}, 3)}, out), "does not match")
	wantErr(t, indexCall(t, a, []*executor.Tensor{tensor(t, []float32{0}, 1)}, out), "must be int64, int32, bool or uint8")
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(0, 1)}, empty(t, executor.Float32, 2, 2)), "cannot resize a static tensor")
	wantErr(t, indexCall(t, a, []*executor.Tensor{i64(0, 1)}, empty(t, executor.Float64, 2, 3)), "keeps the dtype")
	wantErr(t, call(t, "aten::index.Tensor_out", a, i64(0), out, out), "argument 1 (indices): want a list of optional tensors")
}
