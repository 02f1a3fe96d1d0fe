package executor

import (
	"slices"
	"testing"
)

func TestDimOrder(t *testing.T) {
	// A channels-last 1x2x2x3 tensor: memory holds channels innermost.
	cl, err := NewTensorWithDimOrder(Float32, []int{1, 3, 2, 2}, []uint8{0, 2, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := cl.Strides(); !slices.Equal(got, []int{12, 1, 6, 3}) {
		t.Errorf("strides %v, want [12 1 6 3]", got)
	}
	// Fill logical element (c, h, w) with 100c + 10h + w through a contiguous copy.
	src, _ := NewTensor(Float32, 1, 3, 2, 2)
	d := Data[float32](src)
	for c := 0; c < 3; c++ {
		for h := 0; h < 2; h++ {
			for w := 0; w < 2; w++ {
				d[c*4+h*2+w] = float32(100*c + 10*h + w)
			}
		}
	}
	if err := CopyTensor(cl, src); err != nil {
		t.Fatal(err)
	}
	// In memory, the first pixel's three channels come first.
	if mem := Data[float32](cl)[:3]; !slices.Equal(mem, []float32{0, 100, 200}) {
		t.Errorf("channels-last memory starts %v, want [0 100 200]", mem)
	}
	back, err := Values[float32](cl)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, d) {
		t.Errorf("Values in logical order %v, want %v", back, d)
	}
	if _, err := NewTensorWithDimOrder(Float32, []int{2, 2}, []uint8{1, 1}); err == nil {
		t.Error("a non-permutation dim order was accepted")
	}
}

func TestResize(t *testing.T) {
	s, _ := NewTensor(Float32, 2, 3)
	if err := s.Resize([]int{3, 2}); err == nil {
		t.Error("a static tensor resized to other sizes")
	}
	d, _ := NewDynamicTensor(Float32, 4, 3)
	if err := d.Resize([]int{2, 3}); err != nil || d.Numel() != 6 {
		t.Errorf("resize within bounds: %v, numel %d", err, d.Numel())
	}
	if err := d.Resize([]int{5, 3}); err == nil {
		t.Error("resize beyond capacity accepted")
	}
	if err := d.Resize([]int{12}); err == nil {
		t.Error("resize to another rank accepted")
	}
}

// TestViewOf: a view shares its source's memory, within the bounds declared for it, and holds
// only the source's bytes afterwards.
func TestViewOf(t *testing.T) {
	src, _ := FromSlice([]float32{1, 2, 3, 4, 5, 6}, 6)
	v, _ := NewDynamicTensor(Float32, 4, 4) // declared bound: 16 elements
	if err := v.ViewOf(src, []int{2, 3}); err != nil {
		t.Fatal(err)
	}
	Data[float32](src)[4] = 50
	if got := Data[float32](v); !slices.Equal(got, []float32{1, 2, 3, 4, 50, 6}) || !slices.Equal(v.Sizes(), []int{2, 3}) {
		t.Errorf("view %v of sizes %v", got, v.Sizes())
	}
	if err := v.Resize([]int{3, 3}); err == nil {
		t.Error("a view grew past its source's bytes")
	}
	for _, tc := range []struct {
		name  string
		sizes []int
	}{{"numel", []int{2, 2}}, {"rank", []int{6}}, {"bound", []int{1, 6}}} {
		small, _ := NewDynamicTensor(Float32, 2, 2)
		if tc.name == "bound" {
			if err := small.ViewOf(src, []int{1, 6}); err == nil {
				t.Errorf("%s: a view beyond its declared bound accepted", tc.name)
			}
			continue
		}
		if err := v.ViewOf(src, tc.sizes); err == nil {
			t.Errorf("%s: view of %v as %v accepted", tc.name, src.Sizes(), tc.sizes)
		}
	}
	i64, _ := NewDynamicTensor(Int64, 6)
	if err := i64.ViewOf(src, []int{6}); err == nil {
		t.Error("an int64 view of a float32 tensor accepted")
	}
}
