//go:build novulkan

package builtin_test

const vulkanBuilt = false
