//go:build !novulkan

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/vulkan/vkrt"
	"github.com/etgo/etgo/internal/testutil"
)

// TestCheckVulkan: the binary registers the Vulkan backend, so check of an official Vulkan
// program passes where a Vulkan device opens and, elsewhere, marks the backend missing with
// the reason.
func TestCheckVulkan(t *testing.T) {
	pte := testutil.Testdata(t, "vulkan", "add", "vulkan.pte")
	_, noDevice := vkrt.Available()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", pte}, "ok      backend  VulkanBackend"},
		{[]string{"check", "--json", pte}, `"name": "VulkanBackend",
      "present": true`},
	} {
		code, want := 0, tc.want
		if noDevice != nil {
			code = 1
			want = "MISSING backend  VulkanBackend (registered, but no Vulkan device: "
			if tc.args[1] == "--json" {
				want = `"present": false,
      "reason": "registered, but no Vulkan device: `
			}
		}
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, &stdout, &stderr); got != code {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, got, code, &stdout, &stderr)
		}
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("%v: stdout %q lacks %q", tc.args, &stdout, want)
		}
	}
}
