package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// Expected values from torch.logit (torch 2.15), with and without eps.
func TestLogit(t *testing.T) {
	in := func() *executor.Tensor { return tensor(t, []float32{0, 0.25, 0.5, 0.9, 1, 1.5, -0.1}, 7) }
	for _, tc := range []struct {
		name string
		eps  any
		want []float64
	}{
		{"no eps", none, []float64{-arithInf, -1.0986123085021973, 0, 2.1972243785858154, arithInf, arithNaN, arithNaN}},
		{"eps 0.1 clamps", 0.1, []float64{-2.1972246170043945, -1.0986123085021973, 0, 2.1972243785858154, 2.1972243785858154, 2.1972243785858154, -2.1972246170043945}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := empty(t, executor.Float32, 7)
			if err := call(t, "aten::logit.out", in(), tc.eps, out, out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, []int{7}, tc.want)
		})
	}
	out := empty(t, executor.Float32, 2)
	if err := call(t, "aten::logit.out", tensor(t, []int32{0, 1}, 2), none, out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{2}, []float64{-arithInf, arithInf})
	wantErr(t, call(t, "aten::logit.out", in(), none, empty(t, executor.Int32, 7), none), "produces floating point")
}
