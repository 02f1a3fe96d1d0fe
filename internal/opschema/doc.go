// Package opschema holds operator schemas as torch declares them, in one representation, for
// every part of etgo that needs an operator's signature: the functional schemas of the
// operators an Edge graph can hold (passes), the out-variant table and the full schema of
// every out-variant kernel (emit), and, through internal/cmd/unboxgen, the generated argument
// unboxing of the portable kernels.
//
// The name says what it holds and nothing else: "operator schema" is torch's own term
// (FunctionSchema), short enough to read at every use (opschema.Out("aten::add.out")). It is
// internal because the tables follow torch's pinned version, not a promise of etgo's.
//
// Invariants:
//   - It imports nothing of etgo, so that emit, passes and the unbox generator can all use it
//     and nothing runtime-only has to: kernels/portable does not import it (its unboxers are
//     generated code), so a runtime-only binary carries none of these tables.
//   - The tables (functional_gen.go, out_gen.go) are generated from torch by
//     tools/reference/generate_opschema.py and are read-only: the *Schema values the lookups
//     return are shared, and callers must not change them.
//
//go:generate sh -c "${DOLLAR}{ET_PYTHON:-python3} ../../tools/reference/generate_opschema.py"
package opschema
