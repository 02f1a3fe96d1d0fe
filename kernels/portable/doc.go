// Package portable holds etgo's portable kernels: the out-variant operators of ExecuTorch's
// portable kernel library, in pure Go, one operator per file with its table-driven test.
//
// Conventions every kernel follows:
//   - A kernel receives the KernelCall's arguments as the program lists them: every argument of
//     the out variant's schema in schema order, then the return slot. It unboxes them with its
//     generated unboxer (unbox<Kernel> in unbox_gen.go, from torch's schema in
//     internal/opschema: count and tags checked, values typed), sizes its out tensor with
//     Resize (which refuses a static out of the wrong shape and a dynamic one beyond its
//     planned capacity), then writes it. A kernel's name is spelled out where it is
//     registered, so that the generators find it; a new one needs its schema
//     (tools/reference/generate_opschema.py) and then go generate.
//   - Kernels never panic on a program's arguments: a wrong type, rank, dtype or size is an error
//     wrapping executor.ErrInvalidArgument that names the argument.
//   - Dtype promotion, broadcasting, scalar "wrapped number" semantics and integer/float
//     conversion follow PyTorch and ExecuTorch's portable kernels. Elementwise math is computed
//     in float64 (floating types) or int64 (integral types) and cast to the out dtype, which
//     gives correctly rounded float32 results for + - * /. Where the official kernel's compute
//     type differs (float unary ops compute float32/float16/bfloat16 in float32; mean, var,
//     prod, cumsum and _softmax accumulate in float32 or out's type), etgo uses the official's:
//     numerics_test.go replays the official runtime's outputs bit for bit (libm-backed unary ops
//     within 1 ulp, see numericsUlps).
//   - Float16 and BFloat16 follow the official kernel's CTYPE arithmetic (half_util.go): where it
//     is templated on c10::Half / c10::BFloat16 (addmm, convolution and its transpose, avg_pool2d,
//     no-training batch norm) every product, partial sum and scaling is rounded to the half
//     type; where c10 promotes to float (half times float: bilinear resampling) or the kernel
//     accumulates in float (mean, var, cumsum, softmax, group norm), so does etgo.
//     numerics_test.go's TestNumericsHalf replays testdata/numerics_half.json.gz bit for bit.
//   - Tensors are read and written in logical (row-major) order through their strides, so every
//     dim order works; contiguous tensors take a direct path.
//
// Register adds every kernel to a executor.Registry; Coverage lists operator × dtype support.
package portable
