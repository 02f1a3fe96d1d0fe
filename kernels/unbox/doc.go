// Package unbox reads a kernel call's arguments out of its EValues, for every kernel library
// (portable, optimized, llm, quantized, and any a program brings).
//
// Two layers. The accessors (TensorArg, IntArg, ScalarArg, …) read one argument and name it in
// their error, so a bad program says exactly what is wrong: "argument 2 (alpha): want a Scalar
// (Int, Double or Bool), got Tensor". The Reader strings them together for the generated
// unboxers (internal/cmd/unboxgen): it checks the count first, then reads in schema order and
// keeps the first error, so a generated unboxer is one line per argument.
//
// Every library uses the same words on purpose: an optimized kernel registered over a portable
// one must refuse a bad program exactly as the portable kernel would, since either may run it.
// Errors wrap executor.ErrInvalidArgument. The package imports only the executor.
package unbox
