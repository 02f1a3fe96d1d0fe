package optimized

import "testing"

func TestSubMatchesPortable(t *testing.T) {
	for _, alpha := range []any{1, 0.7} {
		binaryCases(t, "aten::sub.out", alpha)
	}
}
