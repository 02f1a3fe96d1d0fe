package optimized

import "testing"

func TestDivMatchesPortable(t *testing.T) { binaryCases(t, "aten::div.out") }
