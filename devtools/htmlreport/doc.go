// Package htmlreport writes a partition plan as one self-contained HTML page: the partitioned
// graph drawn in the page (inline SVG, laid out here, so no Graphviz is needed to read it), the
// regions per backend, the operators left to the portable kernels with each partitioner's
// reason, coverage by operator count and by estimated work, and the tensors crossing region
// borders with their bytes — the boundary a fragmented plan pays for on every run.
//
//	etgo lower MODEL.pt2 --plan --html plan.html
//
// The page has no scripts and loads nothing: hovering a node shows its target and reasons (SVG
// titles). The layout is layered (each operator one row below the latest operator it reads
// from, rows ordered by the mean position of their inputs), which keeps dataflow top to bottom
// and regions visibly contiguous for the graphs export produces.
package htmlreport
