package optimized

import "testing"

func TestMulMatchesPortable(t *testing.T) { binaryCases(t, "aten::mul.out") }
