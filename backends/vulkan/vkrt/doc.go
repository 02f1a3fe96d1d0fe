// Package vkrt is etgo's Vulkan run time: VulkanBackend, which executes the VK00 delegate
// blobs of ExecuTorch's Vulkan partitioner (package vkgraph decodes them) with Vulkan compute.
//
// # Reaching Vulkan without cgo
//
// etgo's default build is pure Go (CGO_ENABLED=0), so the Vulkan loader (libvulkan.so.1) is
// opened at run time with github.com/ebitengine/purego, which implements dlopen and C calls
// in Go and assembly. A binary therefore carries this backend everywhere and needs the loader
// only where it runs Vulkan; a build tag would instead make two binaries, one of them unable
// to say why it cannot run a Vulkan program. The bindings (vk_linux.go) cover linux/amd64 and
// linux/arm64, the C layouts they write; elsewhere Init fails with ErrNoDevice saying so. The
// price: on Linux purego's dlopen makes even a CGO_ENABLED=0 binary dynamically linked against
// libc, so backends/builtin leaves this package out under the novulkan build tag.
//
// # Device, memory, commands
//
// The process opens one device, the first with a compute queue and host-visible coherent
// memory (GPUs before CPU devices such as Mesa's lavapipe), on first use, and keeps it. Each
// Init compiles the graph for its input shapes into one storage buffer in that memory,
// holding every tensor, constant and parameter block at 256-byte-aligned offsets; a compute
// pipeline per shader; a descriptor set per dispatch; and one command buffer recorded once
// with a memory barrier between dispatches. Execute copies the inputs into the mapped buffer,
// submits, waits on a fence and copies the outputs out. A call with new input sizes (a
// dynamic dim) compiles another variant (at most maxShapes are kept); the blob's declared
// dims bound every shape. One handle runs one call at a time; submissions to the shared queue
// are serialised.
//
// # etgo's own execution
//
// The official runtime stores most tensors as textures in packed layouts and prepacks
// weights; etgo keeps every tensor as a contiguous buffer of 32-bit elements in its logical
// (NCHW, row-major) order: float32 as its bits, int32 as itself, bool as 0 or 1 (widened and
// narrowed by the staging copies, stage.go, which also cast int64 and float64/float16 call
// tensors to and from the graph's int32 and float32, as the official staging does). It
// ignores the blob's storage, layout and memory-sharing hints (each value has its own region,
// views share their input's), and runs its own shaders (shaders/*.comp, compiled to the
// committed SPIR-V by `go generate`, gen_shaders.go). Tensors that depend on no input (full,
// arange and their kind) are written once when a variant is compiled. Float outputs match
// eager PyTorch within fp32 rounding (the tests hold them to 1e-3 of the largest output, and
// report the worst case); they are not the official runtime's bits. Int and bool outputs are
// exact, comparisons and where treat NaN as torch does.
//
// # Errors
//
// Init refuses, naming all of them, the operators it does not run (Supported lists those it
// does), datatypes other than float32, int32 and bool, and any operator given a datatype it
// does not compute (dtype.go: a float shader never reads an int's bits); ErrNoDevice says why no device opened (Unavailable gives it to the executor's load
// error and to `etgo check`); Vulkan calls that fail are *Error values naming the call and
// result. Everything Init decides from the blob before it meets a device (load, then build:
// regions, bindings, workgroup counts) is fuzzed by FuzzPlan against the invariants the device
// side trusts.
package vkrt
