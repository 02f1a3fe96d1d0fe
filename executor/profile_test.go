package executor_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/pte"
)

// TestProfile: with profiling on, every kernel and delegate call of split_delegation (three
// XNNPACK delegates around two portable kernels) is timed once per run, named as the program
// names it; off, nothing is kept.
func TestProfile(t *testing.T) {
	reg := portableRegistry(t)
	if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	var m zoo.Model
	for _, x := range zoo.Models(t) {
		if x.Name == "split_delegation" {
			m = x
		}
	}
	if m.Name == "" {
		t.Fatal("the zoo has no split_delegation")
	}
	f, err := pte.Open(m.PTE(zoo.Xnnpack))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	meth, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	if _, _, _, ok := meth.Profile(); ok {
		t.Error("profile kept while profiling is off")
	}
	meth.EnableProfiling(true)
	for range 3 {
		if _, err := meth.Run(context.Background(), zoorun.Inputs(t, m)...); err != nil {
			t.Fatal(err)
		}
	}
	instrs, runs, total, ok := meth.Profile()
	if !ok || runs != 3 || total <= 0 {
		t.Fatalf("ok %v, %d runs, total %v", ok, runs, total)
	}
	var kinds []string
	var sum int64
	for _, in := range instrs {
		if in.Calls != 3 {
			t.Errorf("%s %s called %d times, want 3", in.Kind, in.Name, in.Calls)
		}
		kinds = append(kinds, in.Kind+":"+strings.SplitN(in.Name, " ", 2)[0])
		sum += int64(in.Total)
	}
	slices.Sort(kinds)
	got := strings.Join(kinds, " ")
	want := "delegate:XnnpackBackend delegate:XnnpackBackend delegate:XnnpackBackend kernel:aten::cumsum.out kernel:aten::erf.out"
	if got != want {
		t.Errorf("timed instructions %s, want %s", got, want)
	}
	if sum > int64(total) {
		t.Errorf("instructions took %d ns of a %d ns total", sum, total)
	}
	for i := 1; i < len(instrs); i++ {
		if instrs[i].Total > instrs[i-1].Total {
			t.Errorf("not slowest first: %v then %v", instrs[i-1].Total, instrs[i].Total)
		}
	}
	meth.EnableProfiling(false)
	if _, _, _, ok := meth.Profile(); ok {
		t.Error("profile kept after profiling was turned off")
	}
}
