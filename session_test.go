package etgo_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

const mutable = "testdata/pte/mutable_buffer.pte"

// TestSessionKeepsState: a program's mutable buffer carries from one call to the next — through
// a Session, and through the Module's own calls made one after another — and the second call
// gives the official runtime's second output; a new Session starts from the initial state.
func TestSessionKeepsState(t *testing.T) {
	m, err := etgo.Load(mutable)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	x, err := etgo.ReadNPY("testdata/pte/inputs/mutable_buffer/input_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.Load("testdata/pte/outputs/mutable_buffer/forward_call2/output_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	second := func(run func() ([]*etgo.Tensor, error)) error {
		if _, err := run(); err != nil {
			return err
		}
		out, err := run()
		if err != nil {
			return err
		}
		return npyconv.Compare(out[0], want, 0)
	}
	s, err := m.Session("forward")
	if err != nil {
		t.Fatal(err)
	}
	if err := second(func() ([]*etgo.Tensor, error) { return s.Run(context.Background(), x) }); err != nil {
		t.Errorf("session: %v", err)
	}
	fresh, err := m.Session("forward")
	if err != nil {
		t.Fatal(err)
	}
	if err := second(func() ([]*etgo.Tensor, error) { return fresh.Run(context.Background(), x) }); err != nil {
		t.Errorf("a second session does not start from the initial state: %v", err)
	}
	if err := second(func() ([]*etgo.Tensor, error) { return m.Forward(context.Background(), x) }); err != nil {
		t.Errorf("module calls one after another: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), x); !errors.Is(err, etgo.ErrClosed) {
		t.Errorf("a closed session runs: %v", err)
	}
	m.Close()
	if _, err := fresh.Run(context.Background(), x); !errors.Is(err, etgo.ErrClosed) {
		t.Errorf("a session of a closed module runs: %v", err)
	}
	if _, err := m.Session("forward"); !errors.Is(err, etgo.ErrClosed) {
		t.Errorf("a closed module makes sessions: %v", err)
	}
}

// TestConstantMethods reads export_llm's metadata methods, and MethodMeta the decoder's
// signature, without running the decoder.
func TestConstantMethods(t *testing.T) {
	m, err := etgo.Load("testdata/llm/llama3_2/model.pte")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for name, want := range map[string]int64{"get_max_seq_len": 32, "get_vocab_size": 320, "use_kv_cache": 1, "get_bos_id": 0, "get_n_layers": 2} {
		got, err := m.ConstantInt(name)
		if err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", name, got, err, want)
		}
	}
	if eos, err := m.ConstantInts("get_eos_ids"); err != nil || !slices.Equal(eos, []int64{1}) {
		t.Errorf("get_eos_ids = %v, %v", eos, err)
	}
	if _, err := m.ConstantInt("forward"); !errors.Is(err, etgo.ErrInvalidArgument) {
		t.Errorf("forward as a constant: %v", err)
	}
	if _, err := m.ConstantInt("no_such"); !errors.Is(err, etgo.ErrMethodNotFound) {
		t.Errorf("a missing method: %v", err)
	}
	if !m.HasMethod("get_max_context_len") || m.HasMethod("get_nothing") {
		t.Error("HasMethod")
	}
	meta, err := m.MethodMeta("forward")
	if err != nil {
		t.Fatal(err)
	}
	in := meta.Inputs
	if len(in) != 2 || in[0].Tag != executor.TagTensor || in[0].DType != executor.Int64 || !slices.Equal(in[0].Sizes, []int{1, 31}) || !in[0].Dynamic ||
		!slices.Equal(in[1].Sizes, []int{1}) || in[1].Dynamic {
		t.Errorf("forward inputs %+v", in)
	}
	if out := meta.Outputs; len(out) != 1 || out[0].DType != executor.Float32 || !slices.Equal(out[0].Sizes, []int{1, 320}) {
		t.Errorf("forward outputs %+v", out)
	}
}
