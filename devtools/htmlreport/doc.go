// Package htmlreport writes a partition plan as one self-contained HTML page: the partitioned
// graph drawn in the page (inline SVG, laid out here, so no Graphviz is needed to read it), the
// regions per backend (every region of one backend in that backend's colour, so a plan of
// several partitioners shows which backend took what), the operators left to the portable
// kernels with each partitioner's reason, coverage by operator count and by estimated work per
// backend and for the portable kernels, and the tensors crossing region borders with their
// bytes — the boundary a fragmented plan pays for on every run.
//
//	etgo lower MODEL.pt2 --plan --html plan.html
//
// WriteProgram draws a method of a .pte instead, as the runtime executes it: kernel and
// delegate calls in order with the tensors between them, each backend's share of the calls
// (read from the delegates' backend ids), each delegate's blob as its backend describes it and, given an ETDump of runs (etgo's or the official runtime's), the time per
// instruction and per XNNPACK operator inside each delegate:
//
//	etgo bench m.pte --etdump run.etdp && etgo inspect m.pte --html m.html --etdump run.etdp
//
// The page has no scripts and loads nothing: hovering a node shows its target and reasons (SVG
// titles). The layout is layered (each operator one row below the latest operator it reads
// from, rows ordered by the mean position of their inputs), which keeps dataflow top to bottom
// and regions visibly contiguous for the graphs export produces.
package htmlreport
