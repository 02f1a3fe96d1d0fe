package zoo

import (
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// Models returns the committed zoo (testdata/zoo), failing the test if it cannot be read.
func Models(tb testing.TB) []Model {
	tb.Helper()
	models, err := Load(testutil.Testdata(tb, "zoo"))
	if err != nil {
		tb.Fatal(err)
	}
	return models
}

// Each runs fn as a subtest for every committed zoo model: the one line a test needs to cover
// the whole zoo.
func Each(t *testing.T, fn func(t *testing.T, m Model)) {
	t.Helper()
	for _, m := range Models(t) {
		t.Run(m.Name, func(t *testing.T) { fn(t, m) })
	}
}
