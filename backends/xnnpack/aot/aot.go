package aot

import (
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// Backend is XNNPACK's ahead-of-time contract: its partitioner, ExecuTorch 1.5's
// get_transform_passes() for it (RemoveNoopExpandCopyPass), its preprocess, and the
// description of its blobs (package xnngraph reads them).
func Backend() backends.Backend {
	return backends.Backend{
		Name: "xnnpack",
		ID:   xnngraph.BackendID,
		NewPartitioner: func(o backends.Options) partition.Partitioner {
			return &Partitioner{PerOp: o.PerOp, EnableBF16: o.EnableBF16}
		},
		TransformPasses: func() []passes.Pass { return []passes.Pass{passes.RemoveNoopExpandCopy{}} },
		Preprocess:      PreprocessDelegate,
		DescribeBlob:    xnngraph.Describe,
	}
}
