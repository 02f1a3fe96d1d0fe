package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::replication_pad2d.out", DTypes: realBoolTypes, Fn: replicationPad2dOut})
}

// aten::replication_pad2d.out(Tensor self, SymInt[4] padding, *, Tensor(a!) out).
//
// padding is (left, right, top, bottom); the kernel repeats the edge elements,
// for [C,H,W] or [N,C,H,W] inputs of any real dtype or Bool (a copy).
// A negative pad crops, as in PyTorch.
func replicationPad2dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReplicationPad2dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 2, "replication_pad2d", false)
}
