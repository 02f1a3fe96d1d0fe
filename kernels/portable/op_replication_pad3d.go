package portable

import "github.com/etgo/etgo/executor"

func init() {
	register(executor.Kernel{Name: "aten::replication_pad3d.out", DTypes: realBoolTypes, Fn: replicationPad3dOut})
}

// aten::replication_pad3d.out(Tensor self, SymInt[6] padding, *, Tensor(a!) out).
//
// padding is (left, right, top, bottom, front, back); the kernel repeats the edge elements,
// for [C,D,H,W] or [N,C,D,H,W] inputs of any real dtype or Bool (a copy). A negative pad
// crops, as in PyTorch.
func replicationPad3dOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxReplicationPad3dOut(args)
	if err != nil {
		return err
	}
	return poolEdgePad(a, 3, "replication_pad3d", false)
}
