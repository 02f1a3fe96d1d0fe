package vkrt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/vktest"
	"github.com/etgo/etgo/pte"
)

// fuzzNamed stands in for a program's named data: every key but "missing" holds the same zero
// bytes, enough for the constants of the committed blobs to plan.
func fuzzNamed(key string) ([]byte, error) {
	if key == "missing" {
		return nil, errors.New("no such named data")
	}
	return fuzzConstant, nil
}

var fuzzConstant = make([]byte, 64<<10)

// planBlob is Init without a device: load, then plan for the declared input shapes.
func planBlob(blob []byte) (*builder, error) {
	g, consts, err := load(blob, fuzzNamed)
	if err != nil {
		return nil, err
	}
	return build(g, consts, declaredShapes(g))
}

// checkPlan holds a plan to what the device side trusts without checking: every binding
// names a region, every region lies in the buffer at its alignment, every tensor's elements
// fit its region (Execute slices them out), every shader exists and no dispatch exceeds the
// workgroup counts every device takes.
func checkPlan(t *testing.T, b *builder) {
	t.Helper()
	p := &b.prog
	if p.size > maxProgramBytes {
		t.Fatalf("buffer of %d bytes", p.size)
	}
	for i, s := range p.bufs {
		if s.offset%regionAlign != 0 || s.size < 0 || s.offset+s.size > p.size || len(s.init) > s.size {
			t.Fatalf("region %d: %+v in a buffer of %d bytes", i, s, p.size)
		}
	}
	for i, st := range p.steps {
		if _, ok := shaderSPIRV(st.shader); !ok {
			t.Fatalf("step %d: no shader %q", i, st.shader)
		}
		for _, r := range st.bind {
			if r < 0 || r >= len(p.bufs) {
				t.Fatalf("step %d binds region %d of %d", i, r, len(p.bufs))
			}
		}
		if st.groups[0] == 0 || st.groups[0] > maxGroups || st.groups[1] == 0 || st.groups[1] > maxGroups {
			t.Fatalf("step %d: %v workgroups", i, st.groups)
		}
	}
	for id, r := range b.region {
		if r < 0 {
			continue
		}
		if r >= len(p.bufs) {
			t.Fatalf("value %d in region %d of %d", id, r, len(p.bufs))
		}
		if n := numel(b.shape[id]); n < 0 || 4*n > p.bufs[r].size {
			t.Fatalf("value %d of shape %v in a region of %d bytes", id, b.shape[id], p.bufs[r].size)
		}
	}
	for _, ids := range [][]uint32{b.g.InputIDs, b.g.OutputIDs} {
		for _, id := range ids {
			if b.region[id] < 0 {
				t.Fatalf("delegate argument value %d has no region", id)
			}
		}
	}
}

// seedBlobs are the committed Vulkan blobs: the one-operator programs of testdata/vkrt and the
// official zoo lowerings of testdata/vulkan.
func seedBlobs(t testing.TB) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob(testutil.Testdata(t, "vkrt", "*", "vulkan.pte"))
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pte.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Program.ExecutionPlans[0].Delegates {
			if d.ID != BackendID {
				continue
			}
			blob, err := f.DelegateData(&d)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, blob)
		}
	}
	for _, b := range vktest.Blobs(t) {
		out = append(out, b.Data)
	}
	return out
}

// TestPlanSeeds plans every committed blob the backend runs, so the invariants FuzzPlan holds
// are checked on real plans by every go test.
func TestPlanSeeds(t *testing.T) {
	planned := 0
	for _, blob := range seedBlobs(t) {
		b, err := planBlob(blob)
		if err != nil {
			continue // an operator etgo lacks, or a constant larger than fuzzNamed's
		}
		checkPlan(t, b)
		planned++
	}
	if planned < 30 {
		t.Fatalf("only %d committed blobs planned", planned)
	}
}

// FuzzPlan: a blob is untrusted. Whatever its bytes, planning it refuses with an error or
// gives a plan the device side can trust, and never panics.
func FuzzPlan(f *testing.F) {
	for _, b := range seedBlobs(f) {
		if len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		b, err := planBlob(blob)
		if err != nil {
			return
		}
		checkPlan(t, b)
	})
}
