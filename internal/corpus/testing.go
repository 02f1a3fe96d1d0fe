package corpus

import (
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// Models returns the corpus in dir (the committed testdata/corpus when dir is "") with its
// report, failing the test if it cannot be read.
func Models(tb testing.TB, dir string) (*Report, []Model) {
	tb.Helper()
	if dir == "" {
		dir = testutil.Testdata(tb, "corpus")
	}
	r, models, err := Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if len(models) == 0 {
		tb.Fatal("corpus: no committed models (run tools/reference/generate_corpus.py)")
	}
	return r, models
}
