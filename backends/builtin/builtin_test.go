package builtin_test

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/backends/builtin"
	"github.com/etgo/etgo/executor"
)

func TestRegister(t *testing.T) {
	want := []string{"XnnpackBackend"}
	if vulkanBuilt {
		want = []string{"VulkanBackend", "XnnpackBackend"}
	}
	if got := builtin.IDs(); !slices.Equal(got, want) {
		t.Fatalf("IDs() = %v, want %v", got, want)
	}
	reg := executor.NewRegistry()
	if err := builtin.Register(reg, 1); err != nil {
		t.Fatal(err)
	}
	for _, id := range want {
		if _, ok := reg.Backend(id); !ok {
			t.Errorf("%s is not registered", id)
		}
	}
	if err := builtin.RegisterOnly(executor.NewRegistry(), 1, "QnnBackend"); err == nil {
		t.Error("RegisterOnly of a backend etgo lacks succeeded")
	}
}
