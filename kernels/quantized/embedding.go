package quantized

import (
	"slices"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

// The quantized embeddings share one schema: (Tensor weight, Tensor weight_scales, Tensor?
// weight_zero_points, int weight_quant_min, int weight_quant_max, Tensor indices, [ScalarType?
// dtype,] *, Tensor(a!) out). A row of weight holds one embedding, quantized per row or, with
// 2-d scales, per group of columns: out[..., j] = (w[index, j] - zp[index, g]) * scale[index, g]
// with g = j / (dim / groups), computed in float32 and stored as out's type. The quant range
// only names the weight's range (the official kernels check quant_min <= quant_max and nothing
// else).

// embeddingArgs are the unboxed arguments of one quantized embedding call.
type embeddingArgs struct {
	weight, scales, zeroPoints, indices, out *executor.Tensor
	quantMin, quantMax                       int64
	dtype                                    executor.ScalarType
	hasDtype                                 bool
	dtypeOut                                 bool // the .dtype_out overload
}

// unboxEmbedding reads an embedding call; dtypeOut says whether the schema has the dtype
// argument (the .dtype_out overloads).
func unboxEmbedding(args []*executor.EValue, dtypeOut bool) (embeddingArgs, error) {
	n, outIdx := 8, 6
	if dtypeOut {
		n, outIdx = 9, 7
	}
	var a embeddingArgs
	a.dtypeOut = dtypeOut
	if err := unbox.Count(args, n); err != nil {
		return a, err
	}
	var err error
	if a.weight, err = unbox.TensorArg(args, 0, "weight"); err != nil {
		return a, err
	}
	if a.scales, err = unbox.TensorArg(args, 1, "weight_scales"); err != nil {
		return a, err
	}
	if a.zeroPoints, err = unbox.OptTensorArg(args, 2, "weight_zero_points"); err != nil {
		return a, err
	}
	if a.quantMin, err = unbox.IntArg(args, 3, "weight_quant_min"); err != nil {
		return a, err
	}
	if a.quantMax, err = unbox.IntArg(args, 4, "weight_quant_max"); err != nil {
		return a, err
	}
	if a.indices, err = unbox.TensorArg(args, 5, "indices"); err != nil {
		return a, err
	}
	if dtypeOut {
		if a.dtype, a.hasDtype, err = optDtypeArg(args, 6, "dtype"); err != nil {
			return a, err
		}
	}
	if a.out, err = outArg(args, outIdx, "out"); err != nil {
		return a, err
	}
	return a, returnSlot(args, a.out)
}

// embedding runs a quantized embedding whose weight packs 8/nbit values per byte (nbit 8: one
// uint8 or int8 value per byte, the byte embedding).
func embedding(a embeddingArgs, nbit int) error {
	outIdx := 6
	if a.dtypeOut {
		outIdx = 7
	}
	w, sc, zp, idx, out := a.weight, a.scales, a.zeroPoints, a.indices, a.out
	if w.Dim() != 2 {
		return unbox.ArgError(0, "weight", "must be 2-d, got sizes %v", w.Sizes())
	}
	if nbit == 8 {
		if t := w.ScalarType(); t != executor.Uint8 && t != executor.Int8 {
			return unbox.ArgError(0, "weight", "must be uint8 or int8, got %s", dtypeName(t))
		}
	} else if w.ScalarType() != executor.Uint8 {
		return unbox.ArgError(0, "weight", "must be uint8 (%d-bit values packed %d to a byte), got %s", nbit, 8/nbit, dtypeName(w.ScalarType()))
	}
	dim := w.Size(1) * (8 / nbit) // embedding dim: the packed columns' values
	if sc.Dim() != 1 && sc.Dim() != 2 {
		return unbox.ArgError(1, "weight_scales", "must be 1-d or 2-d, got sizes %v", sc.Sizes())
	}
	if sc.Size(0) != w.Size(0) {
		return unbox.ArgError(1, "weight_scales", "has %d rows for weight's %d", sc.Size(0), w.Size(0))
	}
	groups := 1
	if sc.Dim() == 2 {
		groups = sc.Size(1)
		if groups == 0 || dim%groups != 0 {
			return unbox.ArgError(1, "weight_scales", "%d groups do not divide the embedding dim %d", groups, dim)
		}
	}
	if !isFloatType(out.ScalarType()) {
		return unbox.ArgError(outIdx, "out", "must be float32, float16 or bfloat16, got %s", dtypeName(out.ScalarType()))
	}
	if !isFloatType(sc.ScalarType()) {
		return unbox.ArgError(1, "weight_scales", "must be float32, float16 or bfloat16, got %s", dtypeName(sc.ScalarType()))
	}
	if !a.dtypeOut && sc.ScalarType() != out.ScalarType() {
		// The official .out kernel reads the scales as out's type; it would reinterpret bytes.
		return unbox.ArgError(1, "weight_scales", "is %s but out is %s (the .out overload reads the scales as out's type; use .dtype_out)", dtypeName(sc.ScalarType()), dtypeName(out.ScalarType()))
	}
	if zp != nil {
		if zp.Dim() != sc.Dim() {
			return unbox.ArgError(2, "weight_zero_points", "has rank %d, weight_scales rank %d", zp.Dim(), sc.Dim())
		}
		if zp.ScalarType() != out.ScalarType() {
			return unbox.ArgError(2, "weight_zero_points", "is %s, not out's %s", dtypeName(zp.ScalarType()), dtypeName(out.ScalarType()))
		}
		if zp.ScalarType() != sc.ScalarType() {
			// The official kernel reads the zero points as the scales' type.
			return unbox.ArgError(2, "weight_zero_points", "is %s but weight_scales is %s (the kernel reads both as the scales' type)", dtypeName(zp.ScalarType()), dtypeName(sc.ScalarType()))
		}
		if !slices.Equal(zp.Sizes(), sc.Sizes()) {
			return unbox.ArgError(2, "weight_zero_points", "has sizes %v, weight_scales %v", zp.Sizes(), sc.Sizes())
		}
	}
	if t := idx.ScalarType(); t != executor.Int64 && (nbit == 8 || t != executor.Int32) {
		if nbit == 8 {
			return unbox.ArgError(5, "indices", "must be int64, got %s", dtypeName(t))
		}
		return unbox.ArgError(5, "indices", "must be int64 or int32, got %s", dtypeName(t))
	}
	if a.quantMin > a.quantMax {
		return unbox.ArgError(3, "weight_quant_min", "%d is greater than weight_quant_max %d", a.quantMin, a.quantMax)
	}
	if a.hasDtype && a.dtype != out.ScalarType() {
		return unbox.ArgError(6, "dtype", "%s does not match out's %s", dtypeName(a.dtype), dtypeName(out.ScalarType()))
	}
	if out.Dim() != idx.Dim()+1 {
		return unbox.ArgError(outIdx, "out", "has rank %d; indices of rank %d give rank %d", out.Dim(), idx.Dim(), idx.Dim()+1)
	}
	for _, t := range []struct {
		t    *executor.Tensor
		i    int
		name string
	}{{w, 0, "weight"}, {sc, 1, "weight_scales"}, {zp, 2, "weight_zero_points"}, {idx, 5, "indices"}, {out, outIdx, "out"}} {
		if t.t != nil {
			if err := contiguous(t.t, t.i, t.name); err != nil {
				return err
			}
		}
	}
	ix := indexValues(idx)
	rows := w.Size(0)
	for k, v := range ix {
		if v < 0 || v >= int64(rows) {
			return unbox.ArgError(5, "indices", "index %d (at %d) is out of range for %d embeddings", v, k, rows)
		}
	}
	if err := resizeOut(out, outIdx, "out", append(slices.Clone(idx.Sizes()), dim)); err != nil {
		return err
	}
	scales := floats(sc)
	var zps []float32
	if zp != nil {
		zps = floats(zp)
	}
	dst := newFloatStore(out)
	group := dim / max(groups, 1)
	packed := w.Size(1)
	vals := make([]float32, dim)
	o := 0
	for _, r := range ix {
		row := int(r)
		weightRow(vals, w, row*packed, nbit)
		for gi := range groups {
			q := row*groups + gi
			var z float32
			if zps != nil {
				z = zps[q]
			}
			sc := scales[q]
			seg := vals[gi*group : (gi+1)*group]
			if dst.f32 != nil {
				d := dst.f32[o : o+len(seg)]
				for j, v := range seg {
					d[j] = (v - z) * sc
				}
			} else {
				for j, v := range seg {
					dst.set(o+j, (v-z)*sc)
				}
			}
			o += len(seg)
		}
	}
	return nil
}

// weightRow decodes the row of values starting at byte base into vals: a whole byte (uint8 or
// int8) for nbit 8; for 4 bits, the high nibble first, then the low, minus 8; for 2 bits, the
// lowest pair of bits first, minus 2 (the official packing).
func weightRow(vals []float32, w *executor.Tensor, base, nbit int) {
	switch {
	case nbit == 8 && w.ScalarType() == executor.Int8:
		for j, v := range executor.Data[int8](w)[base : base+len(vals)] {
			vals[j] = float32(v)
		}
	case nbit == 8:
		for j, v := range executor.Data[uint8](w)[base : base+len(vals)] {
			vals[j] = float32(v)
		}
	case nbit == 4:
		for j, b := range executor.Data[uint8](w)[base : base+len(vals)/2] {
			vals[2*j] = float32(int32(b>>4) - 8)
			vals[2*j+1] = float32(int32(b&0x0f) - 8)
		}
	default:
		for j, b := range executor.Data[uint8](w)[base : base+len(vals)/4] {
			vals[4*j] = float32(int32(b&3) - 2)
			vals[4*j+1] = float32(int32(b>>2&3) - 2)
			vals[4*j+2] = float32(int32(b>>4&3) - 2)
			vals[4*j+3] = float32(int32(b>>6) - 2)
		}
	}
}
