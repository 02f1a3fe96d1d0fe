package vkrt_test

import "testing"

func TestBinary(t *testing.T) {
	runCases(t, "add_broadcast", "add_alpha", "sub_broadcast", "mul_broadcast", "div")
}
