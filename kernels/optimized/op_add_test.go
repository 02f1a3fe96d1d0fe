package optimized

import "testing"

func TestAddMatchesPortable(t *testing.T) {
	for _, alpha := range []any{1, 2.5, true} {
		binaryCases(t, "aten::add.out", alpha)
	}
}
