package workpool

import "testing"

var sink float64

// spinWork is a stand-in task: n dependent floating-point adds.
func spinWork(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i) * 1.0000001
	}
	return s
}

// benchRegion times one parallel region of 8 tasks: with tiny tasks it measures the hand-off
// cost, with ~2 us tasks how close 2 threads come to halving the time.
func benchRegion(b *testing.B, threads, work int) {
	var parts [8]float64
	for i := 0; i < b.N; i++ {
		Run(threads, 8, func(t int) { parts[t] = spinWork(work) })
	}
	sink = parts[0]
}

func BenchmarkRegion1T_tiny(b *testing.B) { benchRegion(b, 1, 10) }
func BenchmarkRegion2T_tiny(b *testing.B) { benchRegion(b, 2, 10) }
func BenchmarkRegion1T_2us(b *testing.B)  { benchRegion(b, 1, 4000) }
func BenchmarkRegion2T_2us(b *testing.B)  { benchRegion(b, 2, 4000) }
