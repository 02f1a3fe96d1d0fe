// Package emit is the back half of lowering (ExecuTorch's to_executorch): it turns a partitioned
// Edge graph (partition.Plan) into the tables of a .pte (pte.Contents), which pte.Write lays out.
//
// Out variants. Every operator left to the portable kernels runs as its out variant
// (aten.add.Tensor as the kernel "aten::add.out"). The table and each out variant's full schema
// (argument names, types, keyword-only and out flags, defaults, number of returns) come from
// internal/opschema, generated from torch: a node read from a .pt2 omits the arguments left at
// their default, and a KernelCall lists them all.
//
// Emission (Program). One method; one chain. Invariants of what it produces:
//   - values: graph inputs first, in signature order (parameters, buffers and constants as
//     constant tensors, deduplicated by content into the constant segment; user inputs as
//     planned tensors), then per node its output tensors, then its arguments. Int-list items
//     are indices of Int values; dtype, layout and memory-format arguments are Ints; a required
//     Tensor given as None is the empty BYTE tensor ExecuTorch writes; a number where a Tensor is
//     due is a 0-dim constant tensor.
//   - a KernelCall's args are every schema argument in order (defaults filled in), then the
//     return: the out tensor again, or a new TensorList of the outs when there are several or
//     the out is a list. Outputs the graph drops (a batch norm's statistics, max_pool2d's
//     indices) still get a tensor, their shape inferred from the operator.
//   - a view_copy that is not a graph output runs no kernel: its tensor shares its root's
//     storage (ReplaceViewCopyWithViewPass); a dynamic one runs executorch_prim::et_view.
//   - a DelegateCall's args are the call's inputs then its outputs; its blob comes from
//     Options.Preprocess for the backend id; identical blobs are stored once; named data is
//     deduplicated by key (the same key with different bytes is an error).
//   - symbolic dims are written as their upper bound (Graph.Ranges) with DYNAMIC_BOUND.
//   - the same plan always gives the same program (no map order, no hashing of pointers).
//
// Memory planning. Every non-constant tensor (user inputs and outputs included, as ExecuTorch's
// default alloc_graph_input/output) has a lifetime over the instruction order, from the node
// that produces it to its last use (graph outputs to the end), extended by its views' uses.
// Buffers are rounded up to 16 bytes and packed greedily into one arena, memory_id 1
// (non_const_buffer_sizes = [0, N]); the smallest of several greedy orders and strategies is
// kept, one of which is ExecuTorch's default, so the arena is never larger than the official
// toolchain's for the same graph.
//
// Errors. Whatever the emitter does not handle (mutable buffers, input mutation, control flow
// and other operators with no out variant, symbolic graph outputs, unbounded dims) is an error
// naming the node and the reason, wrapping ErrUnsupported or ErrNoOutVariant; nothing panics.
// CheckKernels reports every operator a kernel registry lacks before a program ships
// (ErrKernelMissing), which ExecuTorch only finds at load.
package emit
