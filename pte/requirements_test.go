package pte_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// TestNeeds: one need per delegate (with the instruction calling it), then the kernels in
// first-use order with every instruction calling them — what the runtime's load check, the
// emitter's kernel check and etgo check report from.
func TestNeeds(t *testing.T) {
	for _, tc := range []struct {
		model, variant string
		want           []string
	}{
		{"split_delegation", "xnnpack.pte", []string{
			"forward backend XnnpackBackend d0 @0", "forward backend XnnpackBackend d1 @2", "forward backend XnnpackBackend d2 @4",
			"forward kernel aten::cumsum.out @1", "forward kernel aten::erf.out @3"}},
	} {
		f, err := pte.Open(testutil.Testdata(t, "zoo", tc.model, tc.variant))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range f.Program.Needs() {
			s := fmt.Sprintf("%s %s %s", n.Method, n.Kind, n.Name)
			if n.Kind == pte.NeedBackend {
				s += fmt.Sprintf(" d%d", n.Delegate)
			}
			got = append(got, s+" @"+strings.Join(n.Instructions, ","))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s/%s needs\n%s\nwant\n%s", tc.model, tc.variant, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		if b := f.RequiredBackends(); len(b) != 1 || b[0] != "XnnpackBackend" {
			t.Errorf("RequiredBackends = %v", b)
		}
		f.Close()
	}
}
