package llm

import (
	"math"
	"sort"
)

// DefaultTopP is the runner's top-p (kTopp): its Sampler always samples from the nucleus of 0.9
// when the temperature is not 0.
const DefaultTopP = 0.9

// Sampler picks the next token from logits exactly as ExecuTorch's llm::Sampler does (float32
// arithmetic, xorshift* random numbers): argmax at temperature 0; otherwise the logits divided by
// the temperature, softmax, one coin in [0, 1), then top-k when 0 < k < vocabulary, plain
// multinomial when top-p is outside (0, 1), top-p (nucleus) otherwise. The same seed gives the
// official Sampler's tokens. Not safe for concurrent use.
type Sampler struct {
	invTemp float32
	topP    float32
	topK    int
	state   uint64
	probs   []float32
	index   []probIndex
}

type probIndex struct {
	p float32
	i int
}

// NewSampler returns a sampler. As in the official one, xorshift never leaves a seed of 0: every
// coin is then 0, which picks the most probable token of the nucleus.
func NewSampler(temperature, topP float32, topK int, seed uint64) *Sampler {
	s := &Sampler{topP: topP, topK: topK, state: seed}
	s.SetTemperature(temperature)
	return s
}

// SetTemperature sets the temperature (below 0 counts as 0, greedy).
func (s *Sampler) SetTemperature(t float32) {
	s.invTemp = 0
	if t > 0 {
		s.invTemp = 1 / t
	}
}

// Sample returns the index of the next token among logits (which it does not change).
func (s *Sampler) Sample(logits []float32) int {
	n := len(logits)
	if n == 0 {
		return 0
	}
	if s.invTemp == 0 {
		return argmax(logits)
	}
	if cap(s.probs) < n {
		s.probs = make([]float32, n)
	}
	p := s.probs[:n]
	for i, x := range logits {
		p[i] = x * s.invTemp
	}
	softmax(p)
	coin := s.randomF32()
	switch {
	case s.topK > 0 && s.topK < n:
		return s.sampleTopK(p, coin)
	case s.topP <= 0 || s.topP >= 1:
		return sampleMult(p, coin)
	}
	return s.sampleTopP(p, coin)
}

// argmax is the first index of the largest value (a NaN is never larger; a NaN first stays).
func argmax(x []float32) int {
	best, bestV := 0, x[0]
	for i := 1; i < len(x); i++ {
		if x[i] > bestV {
			best, bestV = i, x[i]
		}
	}
	return best
}

func softmax(x []float32) {
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	var sum float32
	for i, v := range x {
		e := float32(math.Exp(float64(v - m)))
		x[i] = e
		sum += e
	}
	for i := range x {
		x[i] /= sum
	}
}

// randomF32 is the runner's random_f32: xorshift*, the top 24 bits of the 32 it yields.
func (s *Sampler) randomF32() float32 {
	s.state ^= s.state >> 12
	s.state ^= s.state << 25
	s.state ^= s.state >> 27
	u := uint32((s.state * 0x2545F4914F6CDD1D) >> 32)
	return float32(u>>8) / 16777216.0
}

func sampleMult(p []float32, coin float32) int {
	var cdf float32
	for i, v := range p {
		cdf += v
		if coin < cdf {
			return i
		}
	}
	return len(p) - 1 // rounding
}

func (s *Sampler) sampleTopP(p []float32, coin float32) int {
	n := len(p)
	// Values below (1 - topp) / (n - 1) cannot be in the nucleus; the runner drops them first.
	cutoff := (1 - s.topP) / float32(n-1)
	idx := s.index[:0]
	for i, v := range p {
		if v >= cutoff {
			idx = append(idx, probIndex{v, i})
		}
	}
	s.index = idx
	sort.SliceStable(idx, func(a, b int) bool { return idx[a].p > idx[b].p })
	var cum float32
	last := len(idx) - 1
	for i, e := range idx {
		cum += e.p
		if cum > s.topP {
			last = i
			break
		}
	}
	if last < 0 {
		return 0
	}
	r := coin * cum
	var cdf float32
	for i := 0; i <= last; i++ {
		cdf += idx[i].p
		if r < cdf {
			return idx[i].i
		}
	}
	return idx[last].i
}

func (s *Sampler) sampleTopK(p []float32, coin float32) int {
	idx := s.index[:0]
	for i, v := range p {
		idx = append(idx, probIndex{v, i})
	}
	s.index = idx
	sort.SliceStable(idx, func(a, b int) bool { return idx[a].p > idx[b].p })
	k := s.topK
	var sum float32
	for _, e := range idx[:k] {
		sum += e.p
	}
	r := coin * sum
	var cdf float32
	for _, e := range idx[:k] {
		cdf += e.p
		if r < cdf {
			return e.i
		}
	}
	return idx[k-1].i
}
