package llm

import (
	"math"
	"testing"
)

func logitsOf(probs ...float64) []float32 {
	out := make([]float32, len(probs))
	for i, p := range probs {
		out[i] = float32(math.Log(p))
	}
	return out
}

func TestSamplerGreedy(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name   string
		logits []float32
		want   int
	}{
		{"largest", []float32{0.1, 2, -1, 1.5}, 1},
		{"ties pick the first", []float32{3, 1, 3}, 0},
		{"a NaN is never larger", []float32{1, nan, 2}, 2},
		{"a NaN first stays", []float32{nan, 5, 6}, 0},
		{"+Inf", []float32{1, float32(math.Inf(1)), 2}, 1},
	}
	for _, c := range cases {
		for _, temp := range []float32{0, -1} {
			if got := NewSampler(temp, DefaultTopP, 0, 1).Sample(c.logits); got != c.want {
				t.Errorf("%s (temperature %v): %d, want %d", c.name, temp, got, c.want)
			}
		}
	}
}

// TestSamplerRandom: the runner's xorshift* stream (seeded the same, the same coins); a seed of
// 0 stays 0, so every coin is 0 and the most likely token of the nucleus comes out.
func TestSamplerRandom(t *testing.T) {
	s := NewSampler(1, 1, 0, 0x1234)
	state := uint64(0x1234)
	for i := 0; i < 5; i++ {
		state ^= state >> 12
		state ^= state << 25
		state ^= state >> 27
		want := float32(uint32((state*0x2545F4914F6CDD1D)>>32)>>8) / 16777216.0
		if got := s.randomF32(); got != want || got < 0 || got >= 1 {
			t.Fatalf("coin %d: %v, want %v", i, got, want)
		}
	}
	zero := NewSampler(1, DefaultTopP, 0, 0)
	for i := 0; i < 10; i++ {
		if got := zero.Sample(logitsOf(0.2, 0.5, 0.3)); got != 1 {
			t.Fatalf("seed 0: %d", got)
		}
	}
}

func TestSamplerNucleusAndTopK(t *testing.T) {
	const draws = 4000
	count := func(s *Sampler, logits []float32) []int {
		n := make([]int, len(logits))
		for i := 0; i < draws; i++ {
			n[s.Sample(logits)]++
		}
		return n
	}
	l := logitsOf(0.6, 0.25, 0.1, 0.05)
	// top-p 0.5: the cumulative 0.6 of the first token passes 0.5, so only it is drawn.
	if n := count(NewSampler(1, 0.5, 0, 9), l); n[0] != draws {
		t.Errorf("top-p 0.5: %v", n)
	}
	// top-p 0.8: tokens 0 and 1 (0.85 passes 0.8), in proportion 0.6 : 0.25.
	n := count(NewSampler(1, 0.8, 0, 9), l)
	if n[2]+n[3] != 0 || math.Abs(float64(n[0])/float64(draws)-0.6/0.85) > 0.03 {
		t.Errorf("top-p 0.8: %v", n)
	}
	// top-k 3 ignores top-p and draws among three.
	n = count(NewSampler(1, 0.5, 3, 9), l)
	if n[3] != 0 || n[2] == 0 {
		t.Errorf("top-k 3: %v", n)
	}
	// top-p 1 is the whole distribution.
	n = count(NewSampler(1, 1, 0, 9), l)
	for i, p := range []float64{0.6, 0.25, 0.1, 0.05} {
		if math.Abs(float64(n[i])/draws-p) > 0.03 {
			t.Errorf("multinomial: %v", n)
		}
	}
	// The temperature sharpens: at 0.1 the first token is all but certain.
	if n := count(NewSampler(0.1, 1, 0, 9), l); n[0] < draws*99/100 {
		t.Errorf("temperature 0.1: %v", n)
	}
}
