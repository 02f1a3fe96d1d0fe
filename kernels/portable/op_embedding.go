package portable

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::embedding.out", DTypes: shapeAllTypes, Fn: embeddingOut})
}

// aten::embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool
// scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out): the rows of the 2-d weight
// picked by indices (int64 or int32, any shape; each in [0, weight.size(0))); out has
// indices' sizes plus weight.size(1). padding_idx, scale_grad_by_freq and sparse only matter
// for training.
func embeddingOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxEmbeddingOut(args)
	if err != nil {
		return err
	}
	weight, indices, out := u.Weight, u.Indices, u.Out
	if weight.Dim() != 2 {
		return unbox.ArgError(0, "weight", "must be 2-d, got %d dimensions", weight.Dim())
	}
	if err := shapeSameDtype(weight, out); err != nil {
		return err
	}
	vals, err := shapeIndexValues(indices, 1, "indices")
	if err != nil {
		return err
	}
	rows := make([]int, len(vals))
	for k, v := range vals {
		if v < 0 || v >= int64(weight.Size(0)) {
			return unbox.ArgError(1, "indices", "index %d is out of range for %d embeddings", v, weight.Size(0))
		}
		rows[k] = int(v)
	}
	sizes := append(slices.Clone(indices.Sizes()), weight.Size(1))
	if err := resize(out, sizes); err != nil {
		return err
	}
	// Gather into out viewed as [len(rows), D].
	dst, finish := shapeContigOut(out)
	shapeSelectRowsFlat(dst, weight, rows)
	finish()
	return nil
}

// shapeSelectRowsFlat writes rows of a 2-d src into contiguous dst (len(rows) × src.size(1)).
func shapeSelectRowsFlat(dst, src *executor.Tensor, rows []int) {
	d := src.Size(1)
	if src.IsContiguous() {
		n := d * executor.ElementSize(src.ScalarType())
		sb, db := src.Bytes(), dst.Bytes()
		for j, r := range rows {
			copy(db[j*n:(j+1)*n], sb[r*n:(r+1)*n])
		}
		return
	}
	ss := src.Strides()
	for j, r := range rows {
		shapeCopyView(dst, j*d, []int{1}, src, shapeView{sizes: []int{d}, strides: []int{ss[1]}, base: r * ss[0]})
	}
}
