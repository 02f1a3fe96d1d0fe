package xnnpack

import (
	"github.com/etgo/etgo/backends"
	"github.com/etgo/etgo/partition"
	"github.com/etgo/etgo/passes"
)

// AheadOfTime is XNNPACK's ahead-of-time contract: its partitioner, ExecuTorch 1.5's
// get_transform_passes() for it (RemoveNoopExpandCopyPass) and its preprocess.
func AheadOfTime() backends.Backend {
	return backends.Backend{
		Name:            "xnnpack",
		ID:              BackendID,
		NewPartitioner:  func(o backends.Options) partition.Partitioner { return &Partitioner{PerOp: o.PerOp} },
		TransformPasses: func() []passes.Pass { return []passes.Pass{passes.RemoveNoopExpandCopy{}} },
		Preprocess:      PreprocessDelegate,
	}
}
