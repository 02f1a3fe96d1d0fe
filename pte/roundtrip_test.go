package pte

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// logical is what a program means, independent of layout: its plans with each delegate's blob
// in place of its data reference, every tensor's serialized data, and the named data.
type logical struct {
	Version    uint32
	Plans      []*ExecutionPlan
	Blobs      [][][]byte          // per plan, per delegate
	TensorData map[string][][]byte // per plan, per value (nil for non-tensors)
	NamedData  map[string][]byte
}

func logicalOf(t *testing.T, f *File) logical {
	t.Helper()
	l := logical{Version: f.Program.Version, TensorData: map[string][][]byte{}, NamedData: map[string][]byte{}}
	for _, plan := range f.Program.ExecutionPlans {
		cp := *plan
		cp.Delegates = make([]BackendDelegate, len(plan.Delegates))
		var blobs [][]byte
		for i, d := range plan.Delegates {
			b, err := f.DelegateData(&d)
			if err != nil {
				t.Fatal(err)
			}
			blobs = append(blobs, b)
			d.Processed = nil
			cp.Delegates[i] = d
		}
		l.Plans = append(l.Plans, &cp)
		l.Blobs = append(l.Blobs, blobs)
		data := make([][]byte, len(plan.Values))
		for i, v := range plan.Values {
			if tt, ok := v.(*Tensor); ok {
				b, err := f.TensorData(tt)
				if err != nil && !isExternal(err) {
					t.Fatal(err)
				}
				data[i] = b
			}
		}
		l.TensorData[plan.Name] = data
	}
	for _, nd := range f.Program.NamedData {
		b, err := f.NamedData(nd.Key)
		if err != nil {
			t.Fatal(err)
		}
		l.NamedData[nd.Key] = b
	}
	return l
}

// TestRoundTrip: read → write → read gives the same program, for every zoo and wild program.
func TestRoundTrip(t *testing.T) {
	var identical []string
	files := programFiles(t)
	for _, pf := range files {
		t.Run(pf.name, func(t *testing.T) {
			orig := readFixture(t, pf.path)
			f, err := Parse(orig)
			if err != nil {
				t.Fatal(err)
			}
			c, err := f.Contents()
			if err != nil {
				t.Fatal(err)
			}
			out, err := Write(c, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			g, err := Parse(out)
			if err != nil {
				t.Fatalf("rewritten file does not parse: %v", err)
			}
			if diff := cmp.Diff(logicalOf(t, f), logicalOf(t, g), cmpopts.EquateEmpty(), bytesEqual); diff != "" {
				t.Errorf("rewritten program differs (-orig +rewritten):\n%s", diff)
			}
			// Writing what we read again is a fixed point, byte for byte.
			c2, err := g.Contents()
			if err != nil {
				t.Fatal(err)
			}
			again, err := Write(c2, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, out) {
				t.Errorf("second rewrite differs from the first (%d vs %d bytes)", len(again), len(out))
			}
			if bytes.Equal(out, orig) {
				identical = append(identical, pf.name)
			}
		})
	}
	t.Logf("%d of %d rewritten files are byte-identical to the original: %v", len(identical), len(files), identical)
}

// bytesEqual compares byte slices in one call instead of element by element (tensor data runs
// to megabytes); EquateEmpty handles the case of two empty slices.
var bytesEqual = cmp.FilterValues(func(a, b []byte) bool { return len(a)+len(b) > 0 }, cmp.Comparer(bytes.Equal))

// TestRewriteReport checks the committed report of tools/reference/check_rewrites.py: every
// program file this package round-trips was run, rewritten, in the official runtime, and its
// outputs matched the original's (or, for files the pip runtime cannot load, failed the same way).
func TestRewriteReport(t *testing.T) {
	var rows []struct {
		File           string   `json:"file"`
		Rewrite        string   `json:"rewrite"`
		Original       string   `json:"original"`
		Rewritten      string   `json:"rewritten"`
		DiffVsOriginal *float64 `json:"max_abs_diff_rewritten_vs_original"`
		DiffVsExpected *float64 `json:"max_abs_diff_rewritten_vs_expected"`
	}
	raw := readFixture(t, testutil.Testdata(t, "rewrite_report.json"))
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	byFile := map[string]int{}
	for i, r := range rows {
		byFile[strings.SplitN(r.File, ":", 2)[0]] = i
	}
	for _, pf := range programFiles(t) {
		i, ok := byFile[pf.name]
		if !ok {
			t.Errorf("%s is not in testdata/rewrite_report.json (rerun tools/reference/check_rewrites.py)", pf.name)
			continue
		}
		r := rows[i]
		switch {
		case r.Rewrite != "ok":
			t.Errorf("%s: etgo rewrite failed: %s", pf.name, r.Rewrite)
		case r.Rewritten != "ok" && r.Rewritten != r.Original:
			t.Errorf("%s: the rewrite fails in the official runtime (%s); the original: %s", pf.name, r.Rewritten, r.Original)
		case r.Original == "ok" && (r.DiffVsOriginal == nil || *r.DiffVsOriginal != 0):
			t.Errorf("%s: rewritten outputs differ from the original's by %v", pf.name, r.DiffVsOriginal)
		case r.DiffVsExpected != nil && *r.DiffVsExpected > 1e-4:
			t.Errorf("%s: rewritten outputs differ from the expected ones by %v", pf.name, *r.DiffVsExpected)
		}
	}
}
