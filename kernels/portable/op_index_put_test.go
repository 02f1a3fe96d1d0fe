package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// optList builds a Tensor?[] argument (nil entries are None).
func optList(ts ...*executor.Tensor) *executor.EValue {
	l := &executor.EValue{Tag: executor.TagOptionalTensorList}
	for _, x := range ts {
		e := &executor.EValue{Tag: executor.TagNone}
		if x != nil {
			e = &executor.EValue{Tag: executor.TagTensor, Tensor: x}
		}
		l.TensorRefs = append(l.TensorRefs, e)
	}
	return l
}

// callIndexPut runs op with self, the optional index list, values and accumulate, then out (when
// not nil) and the return slot (out, or self for the in-place variant).
func callIndexPut(t *testing.T, op string, self *executor.Tensor, list []*executor.Tensor, values *executor.Tensor, acc bool, out *executor.Tensor) error {
	t.Helper()
	args := []*executor.EValue{ev(t, self), optList(list...), ev(t, values), ev(t, acc)}
	ret := self
	if out != nil {
		args = append(args, ev(t, out))
		ret = out
	}
	args = append(args, ev(t, ret))
	for i := range kernels {
		if kernels[i].Name == op {
			return kernels[i].Fn(&executor.KernelContext{Operator: op}, args)
		}
	}
	t.Fatalf("no kernel %s", op)
	return nil
}

// Expected values from torch.ops.aten.index_put (torch 2.15), except where noted.
func TestIndexPut(t *testing.T) {
	f32 := executor.Float32
	x := func() *executor.Tensor { return shapeIota(t, 3, 4) }
	i64 := func(v []int64, sizes ...int) *executor.Tensor { return tensor(t, v, sizes...) }
	for _, tc := range []struct {
		name   string
		self   *executor.Tensor
		list   []*executor.Tensor
		values *executor.Tensor
		acc    bool
		out    *executor.Tensor
		sizes  []int
		want   []float64
	}{
		{"rows", x(), []*executor.Tensor{i64([]int64{2, 0}, 2)}, tensor(t, []float32{-1, -2, -3, -4, -5, -6, -7, -8}, 2, 4), false, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{-5, -6, -7, -8, 4, 5, 6, 7, -1, -2, -3, -4}},
		{"negative index, 0-d values", x(), []*executor.Tensor{i64([]int64{-1, 0}, 2)}, tensor(t, []float32{100}), false, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{100, 100, 100, 100, 4, 5, 6, 7, 100, 100, 100, 100}},
		{"None then an index", x(), []*executor.Tensor{nil, i64([]int64{1, 3}, 2)}, tensor(t, []float32{50, 60}, 2), false, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{0, 50, 2, 60, 4, 50, 6, 60, 8, 50, 10, 60}},
		{"two indices", x(), []*executor.Tensor{i64([]int64{0, 2}, 2), i64([]int64{1, 3}, 2)}, tensor(t, []float32{50, 60}, 2), false, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{0, 50, 2, 3, 4, 5, 6, 7, 8, 9, 10, 60}},
		{"broadcast indices", x(), []*executor.Tensor{i64([]int64{0, 2}, 2, 1), i64([]int64{1, 3}, 2)}, tensor(t, []float32{1, 2, 3, 4}, 2, 2), false,
			empty(t, f32, 3, 4), []int{3, 4}, []float64{0, 1, 2, 2, 4, 5, 6, 7, 8, 3, 10, 4}},
		{"non-adjacent indices", empty(t, f32, 2, 3, 2), []*executor.Tensor{i64([]int64{1, 0}, 2), nil, i64([]int64{1, 1}, 2)},
			tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3), false, empty(t, f32, 2, 3, 2), []int{2, 3, 2}, []float64{0, 4, 0, 5, 0, 6, 0, 1, 0, 2, 0, 3}},
		{"accumulate repeats", x(), []*executor.Tensor{i64([]int64{0, 0, 1}, 3)}, tensor(t, []float32{1, 1, 1, 1}, 4), true, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11}},
		{"bool mask row", x(), []*executor.Tensor{tensor(t, []bool{true, false, true}, 3)}, tensor(t, []float32{0}), false, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{0, 0, 0, 0, 4, 5, 6, 7, 0, 0, 0, 0}},
		{"2-d bool mask", x(), []*executor.Tensor{tensor(t, []bool{true, false, false, true, false, false, false, false, false, true, false, false}, 3, 4)},
			tensor(t, []float32{70, 80, 90}, 3), false, empty(t, f32, 3, 4), []int{3, 4}, []float64{70, 1, 2, 80, 4, 5, 6, 7, 8, 90, 10, 11}},
		{"int8 accumulate wraps", tensor(t, []int8{1, 2, 3}, 3), []*executor.Tensor{i64([]int64{1, 1}, 2)}, tensor(t, []int8{100, 100}, 2), true,
			empty(t, executor.Int8, 3), []int{3}, []float64{1, -54, 3}},
		{"bool accumulate is or", tensor(t, []bool{false, true, false}, 3), []*executor.Tensor{i64([]int64{0, 2, 2}, 3)}, tensor(t, []bool{true, false, true}, 3), true,
			empty(t, executor.Bool, 3), []int{3}, []float64{1, 1, 1}},
		{"float16 accumulate rounds each addition", empty(t, executor.Float16, 3), []*executor.Tensor{i64([]int64{0, 0, 1, 1}, 4)},
			arithTyped(t, executor.Float16, []float64{2048, 1, 0.5, 0.25}, 4), true, empty(t, executor.Float16, 3), []int{3}, []float64{2048, 0.75, 0}},
		{"int32 index, int32 self", tensor(t, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4), []*executor.Tensor{tensor(t, []int32{1}, 1)},
			tensor(t, []int32{9, 9, 9, 9}, 4), false, empty(t, executor.Int32, 3, 4), []int{3, 4}, []float64{0, 1, 2, 3, 9, 9, 9, 9, 8, 9, 10, 11}},
		{"empty index", x(), []*executor.Tensor{i64([]int64{}, 0)}, tensor(t, []float32{5}), false, empty(t, f32, 3, 4), []int{3, 4}, shapeSeq(0, 12)},
		{"channels-last self and out", shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), []*executor.Tensor{nil, i64([]int64{2, 0}, 2)},
			tensor(t, []float32{-1, -2, -3, -4}, 1, 2, 2), false, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast), []int{1, 3, 2, 2},
			[]float64{-1, -2, -3, -4, 4, 5, 6, 7, -1, -2, -3, -4}},
		// No index at all: eager torch fails an internal assert; the official kernel writes
		// values (or self + values) broadcast to self, as here.
		{"no index, accumulate", x(), []*executor.Tensor{nil}, tensor(t, []float32{1, 2, 3, 4}, 4), true, empty(t, f32, 3, 4),
			[]int{3, 4}, []float64{1, 3, 5, 7, 5, 7, 9, 11, 9, 11, 13, 15}},
		{"empty list, 0-d self", tensor(t, []float32{3}), nil, tensor(t, []float32{9}), false, empty(t, f32), []int{}, []float64{9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := callIndexPut(t, "aten::index_put.out", tc.self, tc.list, tc.values, tc.acc, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

// Expected values from torch.Tensor.index_put_ (torch 2.15).
func TestIndexPutInPlace(t *testing.T) {
	op := "aten::index_put_"
	x := shapeIota(t, 3, 4)
	if err := callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{2, 0}, 2)}, tensor(t, []float32{-1, -2, -3, -4, -5, -6, -7, -8}, 2, 4), false, nil); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, x, []int{3, 4}, []float64{-5, -6, -7, -8, 4, 5, 6, 7, -1, -2, -3, -4})
	x = shapeIota(t, 3, 4)
	if err := callIndexPut(t, op, x, []*executor.Tensor{nil, tensor(t, []int64{3, 1}, 2)}, tensor(t, []float32{-1, -2, -3, -4, -5, -6}, 3, 2), false, nil); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, x, []int{3, 4}, []float64{0, -2, 2, -1, 4, -4, 6, -3, 8, -6, 10, -5})
	x = shapeIota(t, 3, 2)
	if err := callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{-1, 0}, 2)}, tensor(t, []float32{1}), true, nil); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, x, []int{3, 2}, []float64{1, 2, 2, 3, 5, 6})
	// A repeated index: the last write wins.
	xi := tensor(t, []int64{0, 1, 2, 3, 4, 5}, 3, 2)
	if err := callIndexPut(t, op, xi, []*executor.Tensor{tensor(t, []int64{1, 1}, 2)}, tensor(t, []int64{5, 6, 7, 8}, 2, 2), false, nil); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, xi, []int{3, 2}, []float64{0, 1, 7, 8, 4, 5})
	cl := shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast)
	if err := callIndexPut(t, op, cl, []*executor.Tensor{nil, tensor(t, []int64{2, 0}, 2)}, tensor(t, []float32{-1, -2, -3, -4}, 1, 2, 2), false, nil); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, cl, []int{1, 3, 2, 2}, []float64{-1, -2, -3, -4, 4, 5, 6, 7, -1, -2, -3, -4})
}

func TestIndexPutErrors(t *testing.T) {
	x := shapeIota(t, 3, 4)
	out := empty(t, executor.Float32, 3, 4)
	one := tensor(t, []float32{1})
	op := "aten::index_put.out"
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{3}, 1)}, one, false, out), "index 3 is out of bounds for dimension 0 with size 3")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{-4}, 1)}, one, false, out), "index -4 is out of bounds")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{1}, 1)}, tensor(t, []float32{1, 2}, 2), false, out),
		"shape [2] cannot be broadcast to the indexed shape [1 4]")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{1}, 1)}, tensor(t, []float64{1}), false, out), "dtype float64, want self's float32")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []float32{1}, 1)}, one, false, out), "indices must be int64, int32, bool or uint8")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{nil, nil, tensor(t, []int64{0}, 1)}, one, false, out), "too many indices")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []bool{true, false}, 2)}, one, false, out), "does not match the shape")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{0, 1}, 2), tensor(t, []int64{0, 1, 2}, 3)}, one, false, out), "do not broadcast")
	big := tensor(t, make([]int64, 1<<15), 1<<15, 1)
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{big, tensor(t, make([]int64, 1<<14), 1<<14)}, one, false, out), "more than the limit")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{0}, 1)}, one, false, empty(t, executor.Float64, 3, 4)), "keeps the dtype")
	wantErr(t, callIndexPut(t, op, x, []*executor.Tensor{tensor(t, []int64{0}, 1)}, one, false, empty(t, executor.Float32, 4, 3)), "cannot resize a static tensor")
	wantErr(t, call(t, op, x, none, one, false, out, out), "want a list of optional tensors")
	wantErr(t, call(t, op, x, none, one, false, out), "5 arguments")
	wantErr(t, call(t, "aten::index_put_", x, none, one, false, x, x), "6 arguments")
	wantErr(t, callIndexPut(t, "aten::index_put_", x, []*executor.Tensor{tensor(t, []int64{5}, 1)}, one, false, nil), "index 5 is out of bounds")
}
