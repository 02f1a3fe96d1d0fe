package etdump

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/fbverify"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/npy"
)

// official is the ETDump the official runtime (executorch 1.5.1 pybindings) wrote for two
// runs of the zoo's split_delegation/xnnpack.pte (tools/reference/generate_etdump_fixtures.py).
const official = "testdata/official_split_delegation.etdp"

func TestSpecMatchesFBS(t *testing.T) {
	raw, err := os.ReadFile("schema/etdump.fbs")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fbverify.CompareFBS(string(raw), specETDump) {
		t.Error(d)
	}
}

// outline is a block's events as "name chain instruction" lines, a delegate's events as
// "[id] chain instruction".
func outline(run RunData, delegates bool) []string {
	var out []string
	for _, e := range run.Events {
		p := e.Profile
		if p == nil {
			continue
		}
		if p.Name == "" {
			if delegates {
				out = append(out, fmt.Sprintf("[%s] %d %d", p.DelegateDebugIDStr, p.ChainIndex, p.InstructionID))
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s %d %d", p.Name, p.ChainIndex, p.InstructionID))
	}
	return out
}

// TestParseOfficial reads the official runtime's file: a Default block with the load events,
// then one Execute block per run, with the XNNPACK nodes' events inside each delegate call.
func TestParseOfficial(t *testing.T) {
	d, err := ReadFile(official)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 3 || d.Runs[0].Name != "Default" || d.Runs[1].Name != "Execute" || d.Runs[2].Name != "Execute" {
		t.Fatalf("runs %+v", d.Runs)
	}
	if got := outline(d.Runs[0], true); !reflect.DeepEqual(got, []string{"Method::init -1 0", "Program::load_method -1 0"}) {
		t.Errorf("Default block %v", got)
	}
	want := []string{
		"[Fully Connected (NC, F32) GEMM #1] 0 0", "DELEGATE_CALL 0 0",
		"native_call_cumsum.out 0 1", "OPERATOR_CALL 0 1",
		"[Fully Connected (NC, F32) GEMM #1] 0 2", "[Divide (ND) #1] 0 2", "DELEGATE_CALL 0 2",
		"native_call_erf.out 0 3", "OPERATOR_CALL 0 3",
		"[Multiply (ND) #1] 0 4", "[Add (ND) #1] 0 4", "[Multiply (ND) #2] 0 4", "[Fully Connected (NC, F32) GEMM #1] 0 4", "DELEGATE_CALL 0 4",
		"Method::execute -1 0",
	}
	for _, run := range d.Runs[1:] {
		if got := outline(run, true); !reflect.DeepEqual(got, want) {
			t.Errorf("Execute block\n got %q\nwant %q", got, want)
		}
		for _, e := range run.Events {
			if p := e.Profile; p.EndTime < p.StartTime || (p.Name == "") != (p.DelegateDebugMetadata != nil) || (p.Name == "") == (p.DelegateDebugIDStr == "") {
				t.Errorf("event %+v", p)
			}
		}
	}
	// Re-encoded, the file decodes to the same events.
	again, err := Parse(d.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, d) {
		t.Error("encode/parse round trip differs")
	}
}

func TestParseRefuses(t *testing.T) {
	good, err := os.ReadFile(official)
	if err != nil {
		t.Fatal(err)
	}
	patch := func(at int, b ...byte) []byte { c := append([]byte{}, good...); copy(c[at:], b); return c }
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"size prefix past the end", patch(0, 0xff, 0xff, 0xff, 0x7f), "size prefix"},
		{"identifier", patch(8, 'E', 'T', '1', '2'), "identifier"},
		{"root offset", patch(4, 0xf0, 0xff, 0xff, 0xff), "flatbuffer"},
		{"truncated", good[:len(good)/2], "size prefix"},
		{"size prefix of 0", patch(0, 0, 0, 0, 0), "size prefix"},
	} {
		if _, err := Parse(tc.b); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrInvalid mentioning %q", tc.name, err, tc.want)
		}
	}
}

// inspectorView is what tools/reference/generate_etdump_fixtures.py saved of the official
// Inspector's reading of etgo's ETDump and of the official runtime's, for one zoo model.
type inspectorView struct {
	Model          string `json:"model"`
	Etgo, Official []struct {
		Name   string `json:"name"`
		Events []struct {
			Name      string `json:"name"`
			Samples   int    `json:"samples"`
			Delegated bool   `json:"delegated"`
		} `json:"events"`
	}
}

// record runs a zoo model's xnnpack.pte twice in etgo with a Recorder.
func record(t *testing.T, model string) *ETDump {
	t.Helper()
	reg := executor.NewRegistry()
	for _, r := range []func(*executor.Registry) error{portable.Register, prim.Register, xnnpack.Register} {
		if err := r(reg); err != nil {
			t.Fatal(err)
		}
	}
	p, err := executor.Open(testutil.Testdata(t, "zoo", model, "xnnpack.pte"), executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rec := NewRecorder()
	m, err := p.LoadMethod("forward", executor.WithEventTracer(rec))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	files, _ := filepath.Glob(testutil.Testdata(t, "zoo", model, "inputs", "input_*.npy"))
	var in []*executor.EValue
	for _, f := range files {
		a, err := npy.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	}
	for range 2 {
		if _, err := m.Execute(context.Background(), in...); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Parse(rec.Dump().Encode())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRecorderAsInspectorReadsIt: etgo's ETDump of each fixture model, recorded now, has the
// blocks and events the official Inspector found in the one the fixture script gave it, and
// those are the official runtime's own events, by name and in order, the XNNPACK nodes' events
// inside the delegate calls included (for these models XNNPACK runs one operator per node; it
// may fuse or split some elsewhere, which etgo's names do not follow).
func TestRecorderAsInspectorReadsIt(t *testing.T) {
	files, _ := filepath.Glob("testdata/inspector_*.json")
	if len(files) < 2 {
		t.Fatalf("only %d Inspector fixtures", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v inspectorView
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		t.Run(v.Model, func(t *testing.T) {
			d := record(t, v.Model)
			if len(d.Runs) != 3 {
				t.Fatalf("%d blocks, want Default and two Execute", len(d.Runs))
			}
			blocks := map[string][]string{}
			for i, run := range d.Runs[:2] { // one Execute block stands for both
				var names []string
				for _, e := range run.Events {
					if e.Profile.Name == "" {
						names = append(names, e.Profile.DelegateDebugIDStr)
					} else {
						names = append(names, e.Profile.Name)
					}
				}
				blocks[run.Name] = names
				if i == 1 && !reflect.DeepEqual(outline(d.Runs[1], true), outline(d.Runs[2], true)) {
					t.Error("the two Execute blocks differ")
				}
			}
			for _, b := range v.Etgo {
				var names, official []string
				for _, e := range b.Events {
					names = append(names, e.Name)
					if e.Delegated != strings.Contains(e.Name, " #") {
						t.Errorf("the Inspector read %s/%s as delegated %v", b.Name, e.Name, e.Delegated)
					}
					if e.Samples != len(d.Runs)-1 && b.Name == "Execute" {
						t.Errorf("the Inspector read %s/%s as %d samples", b.Name, e.Name, e.Samples)
					}
				}
				if !reflect.DeepEqual(names, blocks[b.Name]) {
					t.Errorf("block %s: etgo records\n %q\nthe Inspector read\n %q", b.Name, blocks[b.Name], names)
				}
				for _, ob := range v.Official {
					if ob.Name != b.Name {
						continue
					}
					for _, e := range ob.Events {
						official = append(official, e.Name)
					}
				}
				if !reflect.DeepEqual(names, official) {
					t.Errorf("block %s: etgo\n %q\nofficial\n %q", b.Name, names, official)
				}
			}
		})
	}
}

// FuzzParse: no input panics the parser, and what parses re-encodes to a file that parses to
// the same thing.
func FuzzParse(f *testing.F) {
	good, err := os.ReadFile(official)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add((&ETDump{Runs: []RunData{{Name: "Execute", Events: []Event{{Allocation: &AllocationEvent{AllocatorID: 1, AllocationSize: 64}}}}}}).Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Parse(b)
		if err != nil {
			return
		}
		again, err := Parse(d.Encode())
		if err != nil {
			t.Fatalf("re-encoded ETDump does not parse: %v", err)
		}
		if !reflect.DeepEqual(again, d) {
			t.Fatal("round trip differs")
		}
	})
}

// TestParseWild reads the ETDump of ExecuTorch's own tutorial (a portable program).
func TestParseWild(t *testing.T) {
	d, err := ReadFile(filepath.Join(testutil.WildDir(t), "docs__source__tutorials_source__etdump.etdp"))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, s := range d.Stats() {
		if s.Block == "Execute" && s.Name == "OPERATOR_CALL" {
			calls = s.Count
		}
	}
	if len(d.Runs) != 2 || calls != 14 {
		t.Errorf("%d blocks, %d operator calls; want 2 and 14", len(d.Runs), calls)
	}
}
