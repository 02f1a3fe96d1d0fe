package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::replication_pad1d.out", DTypes: realBoolTypes, Fn: replicationPad1dOut})
}

// aten::replication_pad1d.out(Tensor self, SymInt[2] padding, *, Tensor(a!) out).
//
// padding is (left, right); the kernel repeats the edge elements,
// for [C,W] or [N,C,W] inputs of any real dtype or Bool (a copy).
// A negative pad crops, as in PyTorch.
func replicationPad1dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReplicationPad1dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 1, "replication_pad1d", false)
}
