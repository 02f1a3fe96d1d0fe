package pte

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// seedPrograms adds the zoo's and the wild fixtures' smaller files (and the hand-made good
// program) as seeds; the committed corpus under testdata/fuzz adds what fuzzing found.
func seedPrograms(f *testing.F) {
	paths, _ := filepath.Glob(testutil.Testdata(f, "zoo", "*", "*.pte"))
	if wild, err := filepath.Glob(filepath.Join(filepath.Dir(testutil.RepoRoot(f)), "shared", "fixtures", "wild", "*")); err == nil {
		paths = append(paths, wild...)
	}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) <= 64<<10 {
			f.Add(b)
		}
	}
	if b, err := Write(goodProgram(), WriteOptions{}); err == nil {
		f.Add(b)
	}
}

// FuzzParse: no input panics; whatever parses resolves all its data and survives a rewrite.
func FuzzParse(f *testing.F) {
	seedPrograms(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(b)
		if err != nil {
			return
		}
		for _, plan := range file.Program.ExecutionPlans {
			for _, v := range plan.Values {
				if tt, ok := v.(*Tensor); ok {
					if _, err := file.TensorData(tt); err != nil && !isExternal(err) {
						t.Fatalf("validated tensor has unreadable data: %v", err)
					}
				}
			}
			for i := range plan.Delegates {
				if _, err := file.DelegateData(&plan.Delegates[i]); err != nil {
					t.Fatalf("validated delegate has unreadable data: %v", err)
				}
			}
		}
		c, err := file.Contents()
		if err != nil {
			return // e.g. constant offsets out of order: readable, not rewritable
		}
		out, err := Write(c, WriteOptions{})
		if err != nil {
			t.Fatalf("Write of a parsed program: %v", err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("rewritten program does not parse: %v", err)
		}
	})
}

// FuzzExtendedHeader: no input panics, and an accepted header lies inside the file.
func FuzzExtendedHeader(f *testing.F) {
	good := goodProgramBytes(f)
	f.Add(good[:64], int64(len(good)))
	f.Add(good[:40], int64(40))
	f.Fuzz(func(t *testing.T, head []byte, size int64) {
		if size < int64(len(head)) {
			size = int64(len(head))
		}
		h, err := ParseExtendedHeader(head, size)
		if err != nil || h == nil {
			return
		}
		if h.ProgramSize > uint64(size) || h.SegmentBaseOffset > uint64(size) || h.SegmentBaseOffset+h.SegmentDataSize > uint64(size) {
			t.Fatalf("accepted header %+v outside a %d-byte file", *h, size)
		}
	})
}

func goodProgramBytes(tb testing.TB) []byte {
	b, err := Write(goodProgram(), WriteOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
