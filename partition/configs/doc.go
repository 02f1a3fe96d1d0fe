// Package configs is the configuration-based partitioner any backend can build its admission
// policy from, as ExecuTorch's ConfigerationBasedPartitioner (exir/backend/canonical_partitioners)
// and XNNPACK's XNNPartitionerConfig are: a backend states one Config per Edge operator it takes
// (the precisions it supports, its own constraint check, the dependencies it claims with a node,
// the ATen operator it keeps whole through the Edge conversion, the activations it fuses), and
// hooks for the constraints every node must meet; the package runs the admission loop, builds
// each decline, and groups the claims with partition.GroupBased.
//
// It lives under partition, beside GroupBased, because it is generic machinery over ir and
// partition that names no backend (internal/layering holds it to that, as it does partition),
// not a backend of its own: backends/xnnpack/aot states XNNPACK's 52 configs with it, and
// backends/example its four.
//
// A Partitioner does not change the graph it partitions. A config's Check and Claim get a
// Query that answers graph questions (is a value a parameter, who reads it) from one index of
// the graph per Partition call, so a check never walks the graph itself; the hooks of Options
// see only the node, as the constraints common to a backend's operators are about its tensors.
package configs
