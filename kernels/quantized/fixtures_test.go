package quantized_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/quantized"
	"github.com/etgo/etgo/pte"
)

// fixtureCase is one program of testdata/cases.json.gz (tools/reference/
// generate_quantized_kernel_fixtures.py): a single call of a quantized operator, and what the
// official runtime's C++ kernel made of it.
type fixtureCase struct {
	Name    string `json:"name"`
	Op      string `json:"op"`
	PTE     string `json:"pte"`
	Expect  string `json:"expect"` // "ok" or "refuse"
	Note    string `json:"note"`
	Outputs []struct {
		DType string `json:"dtype"`
		Sizes []int  `json:"sizes"`
		Data  string `json:"data"`
	} `json:"outputs"`
}

var (
	fixturesOnce sync.Once
	fixtures     []fixtureCase
	fixturesErr  error
)

func loadFixtures(t *testing.T) []fixtureCase {
	t.Helper()
	fixturesOnce.Do(func() {
		raw, err := os.ReadFile("testdata/cases.json.gz")
		if err != nil {
			fixturesErr = err
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			fixturesErr = err
			return
		}
		var doc struct {
			Cases []fixtureCase `json:"cases"`
		}
		fixturesErr = json.NewDecoder(zr).Decode(&doc)
		fixtures = doc.Cases
	})
	if fixturesErr != nil {
		t.Fatal(fixturesErr)
	}
	return fixtures
}

func registry(t testing.TB) *executor.Registry {
	t.Helper()
	reg := executor.NewRegistry()
	if err := quantized.Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// runPTE loads and runs a one-method program with no inputs.
func runPTE(reg *executor.Registry, data []byte) ([]*executor.EValue, error) {
	f, err := pte.Parse(data)
	if err != nil {
		return nil, err
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		return nil, err
	}
	m, err := p.LoadMethod("forward")
	if err != nil {
		return nil, err
	}
	defer m.Close()
	return m.Execute(context.Background())
}

// TestFixtures runs every case with etgo: the outputs must equal the official runtime's bit for
// bit, and every call the official runtime refused (or would answer by reading out of bounds)
// must be refused.
func TestFixtures(t *testing.T) {
	reg := registry(t)
	ops := map[string]int{}
	for _, c := range loadFixtures(t) {
		ops[c.Op]++
		t.Run(c.Name, func(t *testing.T) {
			data, err := base64.StdEncoding.DecodeString(c.PTE)
			if err != nil {
				t.Fatal(err)
			}
			outs, err := runPTE(reg, data)
			if c.Expect == "refuse" {
				if err == nil {
					t.Fatalf("ran; the official kernel refuses (%s)", c.Note)
				}
				// The method load refuses an input type no kernel takes (ErrOperatorMissing, as
				// the official registry has no kernel for it either); the kernels refuse the rest.
				if !errors.Is(err, executor.ErrInvalidArgument) && !errors.Is(err, executor.ErrOperatorMissing) {
					t.Errorf("refused with an error of another kind: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(outs) != len(c.Outputs) {
				t.Fatalf("%d outputs, want %d", len(outs), len(c.Outputs))
			}
			for i, want := range c.Outputs {
				got := outs[i].Tensor
				if got == nil {
					t.Fatalf("output %d is %s, not a tensor", i, outs[i].Tag)
				}
				if executor.DTypeName(got.ScalarType()) != want.DType {
					t.Errorf("output %d: dtype %s, want %s", i, executor.DTypeName(got.ScalarType()), want.DType)
				}
				if !slices.Equal(got.Sizes(), want.Sizes) {
					t.Errorf("output %d: sizes %v, want %v", i, got.Sizes(), want.Sizes)
				}
				wb, _ := base64.StdEncoding.DecodeString(want.Data)
				if !bytes.Equal(got.Bytes(), wb) {
					t.Errorf("output %d differs from the official runtime's:%s", i, firstDiff(got, wb))
				}
			}
		})
	}
	for _, k := range quantized.Kernels() {
		if ops[k.Name] == 0 {
			t.Errorf("%s has no fixture", k.Name)
		}
	}
}
