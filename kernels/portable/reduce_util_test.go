package portable

import (
	"testing"

	"github.com/etgo/etgo/executor"
)

// reduceHalf builds a Float16 or BFloat16 vector from values (rounded to the type).
func reduceHalf(t testing.TB, dtype executor.ScalarType, v ...float64) *executor.Tensor {
	t.Helper()
	x := empty(t, dtype, len(v))
	storeF64(x, v)
	return x
}
