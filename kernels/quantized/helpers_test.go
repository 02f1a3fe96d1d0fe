package quantized_test

import (
	"fmt"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/quantized"
)

// firstDiff describes the first element where t's bytes differ from want.
func firstDiff(t *executor.Tensor, want []byte) string {
	got := t.Bytes()
	if len(got) != len(want) {
		return fmt.Sprintf(" %d bytes, want %d", len(got), len(want))
	}
	es := executor.ElementSize(t.ScalarType())
	for i := 0; i+es <= len(got); i += es {
		for k := range es {
			if got[i+k] != want[i+k] {
				return fmt.Sprintf(" element %d: bytes %x, want %x", i/es, got[i:i+es], want[i:i+es])
			}
		}
	}
	return ""
}

// dt marks a ScalarType argument.
type dt executor.ScalarType

// call runs the named kernel on args (tensors, int, float64, bool, dt, nil for None) and then
// the return slot (the last tensor argument, or a list of the outs nOut > 1).
func call(name string, nOut int, args ...any) error {
	var fn executor.KernelFunc
	for _, k := range quantized.Kernels() {
		if k.Name == name {
			fn = k.Fn
		}
	}
	if fn == nil {
		return fmt.Errorf("no kernel %s", name)
	}
	ev := make([]*executor.EValue, 0, len(args)+1)
	for _, a := range args {
		switch v := a.(type) {
		case *executor.Tensor:
			if v == nil {
				ev = append(ev, &executor.EValue{Tag: executor.TagNone})
				continue
			}
			ev = append(ev, &executor.EValue{Tag: executor.TagTensor, Tensor: v})
		case int:
			ev = append(ev, &executor.EValue{Tag: executor.TagInt, Int: int64(v)})
		case int64:
			ev = append(ev, &executor.EValue{Tag: executor.TagInt, Int: v})
		case float64:
			ev = append(ev, &executor.EValue{Tag: executor.TagDouble, Double: v})
		case bool:
			ev = append(ev, &executor.EValue{Tag: executor.TagBool, Bool: v})
		case dt:
			ev = append(ev, &executor.EValue{Tag: executor.TagInt, Int: int64(v)})
		case nil:
			ev = append(ev, &executor.EValue{Tag: executor.TagNone})
		default:
			return fmt.Errorf("call: argument of type %T", a)
		}
	}
	if nOut == 1 {
		ev = append(ev, ev[len(ev)-1])
	} else {
		ev = append(ev, &executor.EValue{Tag: executor.TagTensorList, TensorRefs: ev[len(ev)-nOut:]})
	}
	return fn(&executor.KernelContext{Operator: name}, ev)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func f32s(v []float32, sizes ...int) *executor.Tensor { return must(executor.FromSlice(v, sizes...)) }
