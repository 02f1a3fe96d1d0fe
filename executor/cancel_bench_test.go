package executor_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
)

// BenchmarkCancelLatency measures how long Execute takes to return once its context is
// cancelled at a random moment of a run: the wait for the instruction (or XNNPACK node) that
// is running. It covers the committed zoo and, when generated, the full-size models of
// testdata/zoo-full (tools/reference/generate_zoo.py --full). Metrics: run-ms (one whole
// Execute), p50-ms, p99-ms and max-ms of the latency.
//
//	go test ./runtime -run '^$' -bench CancelLatency/xnnpack/ -benchtime 200x
func BenchmarkCancelLatency(b *testing.B) {
	reg := portableRegistry(b)
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{}); err != nil {
		b.Fatal(err)
	}
	models := zoo.Models(b)
	if full := testutil.Testdata(b, "zoo-full"); dirExists(full) {
		more, err := zoo.Load(full)
		if err != nil {
			b.Fatal(err)
		}
		for i := range more {
			more[i].Name += "_full"
		}
		models = append(models, more...)
	}
	for _, v := range []zoo.Variant{zoo.Xnnpack, zoo.Portable} {
		for _, m := range models {
			b.Run(string(v)+"/"+m.Name, func(b *testing.B) {
				p, err := executor.Open(m.PTE(v), executor.Options{Registry: reg})
				if err != nil {
					b.Fatal(err)
				}
				defer p.Close()
				meth, err := p.LoadMethod("forward")
				if err != nil {
					b.Fatal(err)
				}
				defer meth.Close()
				in := zoorun.Inputs(b, m)
				run := time.Duration(1 << 62)
				for range 3 {
					t0 := time.Now()
					if _, err := meth.Run(context.Background(), in...); err != nil {
						b.Fatal(err)
					}
					run = min(run, time.Since(t0))
				}
				rng := rand.New(rand.NewPCG(1, 2))
				var lat []time.Duration
				b.ResetTimer()
				for range b.N {
					ctx, cancel := context.WithCancel(context.Background())
					returned := make(chan time.Time, 1)
					go func() {
						meth.Run(ctx, in...)
						returned <- time.Now()
					}()
					time.Sleep(time.Duration(rng.Int64N(int64(run))))
					t0 := time.Now()
					cancel()
					if d := (<-returned).Sub(t0); d >= 0 { // (else the run ended first)
						lat = append(lat, d)
					}
				}
				b.StopTimer()
				if len(lat) == 0 {
					return
				}
				slices.Sort(lat)
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				b.ReportMetric(ms(run), "run-ms")
				b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
				b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
				b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
