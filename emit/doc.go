// Package emit is the back half of lowering: it turns a partitioned Edge graph into a program
// the runtime executes. This first piece is out-variant selection: every operator left to the
// portable kernels runs as its out variant (aten.add.Tensor as the kernel "aten::add.out"), and
// a program whose fallback operators have no kernel in a given binary can be refused when it is
// lowered rather than when it is loaded.
//
//go:generate sh -c "python3 ../tools/reference/generate_out_variants.py && gofmt -w outvariant_gen.go"
package emit
