package pte

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
)

// testdata/pte holds small official files for paths the zoo does not reach
// (tools/reference/generate_format_fixtures.py).

func TestFormatFixturesManifest(t *testing.T) {
	dir := testutil.Testdata(t, "pte")
	m, err := zoo.LoadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	problems, err := m.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

func TestExternalConstants(t *testing.T) {
	f, err := Open(testutil.Testdata(t, "pte", "external_constants.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ext := f.ExternalTensors()
	if got := strings.Join(ext["forward"], ","); got != "fc.weight,fc.bias" {
		t.Errorf("external tensors %q", got)
	}
	plan, _ := f.Method("forward")
	found := 0
	for _, v := range plan.Values {
		tt, ok := v.(*Tensor)
		if !ok || tt.ExtraTensorInfo == nil {
			continue
		}
		found++
		_, err := f.TensorData(tt)
		if !errors.Is(err, ErrExternalData) || !strings.Contains(err.Error(), tt.ExtraTensorInfo.FullyQualifiedName) {
			t.Errorf("TensorData of external %q: %v", tt.ExtraTensorInfo.FullyQualifiedName, err)
		}
	}
	if found != 2 {
		t.Errorf("%d external tensors, want 2", found)
	}
	// The .ptd beside it is named, not misread.
	if _, err := Open(testutil.Testdata(t, "pte", "_default_external_constant.ptd")); !errors.Is(err, ErrNotProgram) || !strings.Contains(err.Error(), ".ptd") {
		t.Errorf("opening the .ptd: %v", err)
	}
}

func TestMutableBuffer(t *testing.T) {
	f, err := Open(testutil.Testdata(t, "pte", "mutable_buffer.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(f.Program.MutableDataSegments) != 1 {
		t.Fatalf("mutable data segments %v", f.Program.MutableDataSegments)
	}
	plan, _ := f.Method("forward")
	var state []byte
	for _, v := range plan.Values {
		if tt, ok := v.(*Tensor); ok && tt.AllocationInfo != nil && tt.DataBufferIdx > 0 {
			if state, err = f.TensorData(tt); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The buffer's initial value is arange(6) as float32.
	if len(state) != 24 {
		t.Fatalf("initial state is %d bytes, want 24", len(state))
	}
	for i := 0; i < 6; i++ {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(state[4*i:])); got != float32(i) {
			t.Errorf("state[%d] = %v, want %d", i, got, i)
		}
	}
}

func TestMultiMethod(t *testing.T) {
	f, err := Open(testutil.Testdata(t, "pte", "multi_method.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.MethodNames(), ","); got != "forward,subtract,get_answer,get_scale,get_flag" {
		t.Errorf("methods %s", got)
	}
	for name, want := range map[string]EValue{"get_answer": Int{Val: 42}, "get_scale": Double{Val: 0.5}, "get_flag": Bool{Val: true}} {
		plan, err := f.Method(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Inputs) != 0 || len(plan.Outputs) != 1 || plan.Values[plan.Outputs[0]] != want {
			t.Errorf("%s: inputs %v, output %v, want %v", name, plan.Inputs, plan.Values[plan.Outputs[0]], want)
		}
	}
}
