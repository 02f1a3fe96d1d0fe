package portable

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// convolutionCase is a convolution with inputs from linalgSeq: input linalgSeq(n, 7, 11, 5, 0.5),
// weight linalgSeq(n, 5, 7, 3, 0.25), bias linalgSeq(oc, 3, 5, 2, 1). Expected values are
// torch.nn.functional.conv1d/conv2d/conv_transpose1d/conv_transpose2d on the same inputs, and
// for 3-D torch.ops.aten.convolution (multiples of 1/8, exact in every floating dtype).
type convolutionCase struct {
	name                      string
	in, w                     []int
	bias                      bool
	stride, padding, dilation []int64
	transposed                bool
	outPadding                []int64
	groups                    int
	sizes                     []int
	want                      []float64
}

var convolutionCases = []convolutionCase{
	{"2d pad 1 bias", []int{1, 2, 4, 4}, []int{3, 2, 3, 3}, true, []int64{1, 1}, []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{1, 3, 4, 4}, []float64{-5.625, 2.875, -2.5, -0.875, 0, -0.75, -2, 1.375, -6.875, -0.25, -0.125, -7.125, -0.625, 0.75, -2.875, -3.875, 2, 3.875, 0.25, 2.125, -1.375, -3.5, 3.375, -0.75, 1.5, 2, 2, 0.5, 1.625, -4.125, 5, -1.375, -0.625, -6.25, 1.5, -1.625, -1.625, 0.125, -4.125, -1.75, 1.375, -8.625, 0.875, -0.375, -2.875, -0.875, 1.75, -1.25}},
	{"2d stride 2 dilation 2", []int{1, 2, 6, 7}, []int{2, 2, 2, 2}, false, []int64{2, 2}, []int64{0, 0}, []int64{2, 2}, false, []int64{0, 0}, 1, []int{1, 2, 2, 3}, []float64{0.5, -0.625, -0.375, -1.875, 3.875, 0, -2.125, -2.75, 2.125, -1, -1.625, 1.875}},
	{"2d uneven stride pad", []int{2, 1, 5, 4}, []int{2, 1, 3, 2}, true, []int64{2, 1}, []int64{1, 0}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{2, 2, 3, 3}, []float64{-2.5, -2.125, -1.75, -3.375, 0.25, -0.25, -4.25, 0, -2.625, -1.625, 3.75, -0.5, -0.25, 3, -0.625, 0.75, 0.375, 0, -1.875, 1.25, -2.5, -1, -4.25, -3.375, -3.125, 1.125, -4.25, 4.125, -0.125, -1.625, -1.25, 2, -0.25, 4.25, 1.125, 0.75}},
	{"2d groups 2", []int{1, 4, 3, 3}, []int{4, 2, 2, 2}, true, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, 2, []int{1, 4, 2, 2}, []float64{1.625, -5.125, -2.125, -3.375, -1.875, 2.625, 0.625, 1, -3.125, -3.125, -1.75, 1, 2.375, 2, 1.25, 3.625}},
	{"2d depthwise multiplier 2", []int{1, 3, 4, 4}, []int{6, 1, 3, 3}, true, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, false, []int64{0, 0}, 3, []int{1, 6, 2, 2}, []float64{-4.75, -3.75, -4.125, -3, 1.625, -1.125, -0.5, 1.625, -0.75, -3.875, 0.5, -5, 4.25, 0.25, 2.5, 2.5, 1.75, -2.5, -1, -3, -3.75, -0.375, 1, -1.375}},
	{"2d depthwise dilated", []int{1, 2, 5, 5}, []int{2, 1, 3, 3}, false, []int64{1, 1}, []int64{2, 2}, []int64{2, 2}, false, []int64{0, 0}, 2, []int{1, 2, 5, 5}, []float64{-1.25, 2.75, 1.25, 2.75, -1.25, -0.5, 2.125, -1.5, -2.125, 2.125, -3.75, -0.75, 4, 0.375, 3.75, 0.125, -0.125, 1.875, -1.75, -1.75, 0.25, -1.375, -2, 2.375, 1, 0.25, -0.875, -0.5, 0.875, -0.125, 0.125, 1.75, 0.125, 0, 0.375, -3.75, 1.5, 0.125, -0.5, 0.875, -0.5, -1.75, 2.5, 0.875, 0.5, -1.25, -2.5, 2, 0.375, 0}},
	{"2d pointwise", []int{1, 3, 2, 2}, []int{2, 3, 1, 1}, true, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, false, []int64{0, 0}, 1, []int{1, 2, 2, 2}, []float64{0.125, -3.5, -0.25, -3.875, 2.125, -0.25, 2.875, -0.875}},
	{"2d single-value lists", []int{1, 1, 4, 4}, []int{1, 1, 2, 2}, false, []int64{2}, []int64{1}, []int64{1}, false, []int64{0}, 1, []int{1, 1, 3, 3}, []float64{1.25, 0.5, 0, 1.25, 2.375, 0, 0.5, 2, -0.375}},
	{"1d", []int{2, 2, 5}, []int{3, 2, 3}, true, []int64{2}, []int64{1}, []int64{1}, false, []int64{0}, 1, []int{2, 3, 3}, []float64{-3.875, -4.75, -1.5, 5.625, 1.25, -0.75, -2.125, -0.375, -1.5, -2.25, 2.625, -1.5, -1.25, -0.625, 0.375, 1.75, -1.875, -1.875}},
	{"1d dilated", []int{1, 1, 7}, []int{2, 1, 2}, false, []int64{1}, []int64{0}, []int64{3}, false, []int64{0}, 1, []int{1, 2, 4}, []float64{3.125, -0.5, 0, -0.875, -1.25, -0.25, 0.75, -1}},
	{"1d depthwise", []int{1, 2, 4}, []int{2, 1, 3}, false, []int64{1}, []int64{1}, []int64{1}, false, []int64{0}, 2, []int{1, 2, 4}, []float64{-1.25, 2.375, -1.25, 2, 0, -0.875, 2.25, -1}},
	{"transposed 2d", []int{1, 2, 3, 3}, []int{2, 3, 3, 3}, true, []int64{2, 2}, []int64{1, 1}, []int64{1, 1}, true, []int64{1, 1}, 1, []int{1, 3, 6, 6}, []float64{-4.625, -2, -1, -1.625, -1.5, -4.125, 0, -4.375, -1.625, -1.5, -3.25, 0.625, -0.625, -0.875, -1.125, -1.875, -4.375, -0.5, -3.5, -1.25, -1, 0.25, -4, -3.625, -0.75, -1.125, -1.25, -2.125, -4.5, -1, -3.625, -1.75, -1.625, 0.125, -1, -4.5, 2, 2.375, 0.625, -1.75, 0.625, 2.375, 0.5, 4, 0.5, 4, 0.5, -0.875, 0.625, -1.75, 0.625, 2.375, 2, 1.5, 0.5, 1.25, 0.5, -0.125, 3.25, -0.75, 0.625, -1.75, 0.625, 2.375, 2, 2, 1.25, 1.125, 0.25, -1.5, 2, 2, -3.375, -0.875, -0.125, 0.125, 0.375, -2.25, -2.25, -0.5, -0.625, -3.375, 1, -2.125, -0.5, -0.625, 0, -1, -3.625, 0.25, 1.25, 0.5, -1.25, -3.75, -2.375, 1.5, -0.375, -0.375, 0.125, -0.75, -3.5, 0, 0.25, -0.125, -0.25, -1.125, -3.5, 0}},
	{"transposed 2d groups dilation", []int{1, 4, 2, 2}, []int{4, 1, 2, 2}, false, []int64{1, 1}, []int64{0, 0}, []int64{2, 2}, true, []int64{0, 0}, 2, []int{1, 2, 4, 4}, []float64{2.25, -1.875, -1.125, 0.125, 2.25, -1.875, 0, 1.25, -0.125, 0.375, 0.875, 0.625, -0.5, 0, -1, -1.25, -0.75, 0.5, -0.25, 0.25, 0.375, -1.125, -0.625, -0.125, 0.25, 0, -1, 0.625, -1.625, 0.875, 0.875, -1.625}},
	{"transposed 2d depthwise", []int{1, 2, 2, 3}, []int{2, 1, 3, 2}, true, []int64{2, 1}, []int64{0, 1}, []int64{1, 1}, true, []int64{1, 0}, 2, []int{1, 2, 6, 2}, []float64{-4, -0.75, -0.75, -2.5, -1, -1.125, -3.25, -2.25, -1, -3, -2, -2, -0.5, 1.5, 1, 0, 1.5, 3, 0.75, -0.25, 2.375, 1.875, 1, 1}},
	{"transposed 1d", []int{1, 2, 4}, []int{2, 2, 3}, true, []int64{3}, []int64{0}, []int64{1}, true, []int64{2}, 1, []int{1, 2, 14}, []float64{-0.25, -3.625, -1.75, -2.375, -0.375, -2.75, -1.75, -4, -1, -3.875, -0.75, -2, -2, -2, 2.25, -1.125, 0.75, 0.5, 2.5, 0.125, 1.5, -0.75, 2.25, -0.25, 2.875, 1.625, 1, 1}},
	{"transposed 1d padded", []int{2, 1, 3}, []int{1, 2, 2}, false, []int64{1}, []int64{1}, []int64{1}, true, []int64{0}, 1, []int{2, 2, 2}, []float64{-2, 1.25, 1.25, -0.5, 0.875, 1.375, -1.25, -0.25}},
	// 3-D, beyond the official runtime: eager PyTorch's values (tools/reference/print_3d_kernel_cases.py conv).
	{"3d pad 1 bias", []int{1, 2, 3, 4, 4}, []int{2, 2, 3, 3, 3}, true, []int64{1, 1, 1}, []int64{1, 1, 1}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 1, []int{1, 2, 3, 4, 4}, []float64{-0.625, -2.875, -7.875, 0.375, 2.375, -12.125, 3.25, -1.875, -6.25, 5.375, -5.375, -1.625, 1, -6.625, -4, 5.375, -9, 6.5, -1.625, -3, 6.125, -5.25, -5.25, 6.125, -8.625, 4.375, 7.125, -9.375, -2.625, 7.5, -11.875, 0.5, -4.5, -0.75, 3.5, -5.875, -1.875, 3.25, -12.125, 2.375, 0.625, -11.5, 0.625, -2.75, -5.75, -0.25, -7.625, -0.75, -4.625, 11.25, -1, -0.125, 4.875, 2, -2.375, 6.625, -5, 3.75, 6.25, -4, 3.875, 5.25, -4.875, -1.375, -2.375, 1.875, 5.5, -5, 0.875, 5.5, -9.125, 4.25, 3.375, -10.375, 6.625, -1.625, -3.125, 3.5, -4.75, 5, -0.875, -2.125, 5.125, -2.5, -1.75, 4.375, 0.75, -1.125, 4.5, -1.875, 8.25, -1.125, -1, 5.25, 5.75, -2.5}},
	{"3d stride dilation uneven", []int{1, 2, 5, 6, 7}, []int{2, 2, 2, 2, 2}, false, []int64{2, 1, 2}, []int64{1, 0, 1}, []int64{2, 2, 1}, false, []int64{0, 0, 0}, 1, []int{1, 2, 3, 4, 4}, []float64{-0.75, -5.125, 2.75, 1, 1.375, 1.125, -2, -5.125, -0.625, -2.25, 2.875, 1.125, 1.5, 4, -3.25, -2.25, 0.875, -3.125, -0.75, -8, 0.75, -5.125, 4.125, -3.125, 0.625, 5.25, -2, -5.125, 0.5, -0.875, 4.25, 5.25, 1.375, -2.875, 1.25, -4.25, -0.875, 1.25, 1.25, -2.875, 1, 1.25, 1.25, 1.25, -1.25, 1.25, 1.25, 1.25, -0.875, 3.625, 1.75, -0.125, 1.375, 0.5, -2.75, 3.625, -0.5, -4, 2.375, 0.5, 1.75, -1.625, 0.625, -4, 0.75, 4.125, -0.75, 4, 0.875, -4, -0.625, 4.125, 1, -3.875, 2.25, -4, 1.125, -5.125, 3.75, -3.875, 1.375, 0, -3, 3.625, -0.75, -2.25, 1.625, 0, 1.25, -1.75, 0.75, -2.25, -0.875, -2.625, 1.25, -1.75}},
	{"3d groups 2 batch 2", []int{2, 4, 3, 3, 3}, []int{4, 2, 2, 2, 2}, true, []int64{1, 1, 1}, []int64{0, 0, 0}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 2, []int{2, 4, 2, 2, 2}, []float64{2, -5.75, -2, -4.25, -1.75, -5.375, -5.75, -3.875, 2.75, 2.375, 3, -1.5, 2.125, 0.375, 2.375, 0.625, -5, -1.5, -6.875, 2.125, 0.375, -1.625, -1.5, 2, 3.375, 5.375, 1.125, 4.5, -2, 1.375, 5.375, 0.5, -1.75, -5.375, -5.75, -3.875, -1.375, 0.5, -5.375, 2, 2.125, 0.375, 2.375, 0.625, -4, 2.5, 0.375, 2.75, 0.375, -1.625, -1.5, 2, -2.5, 2.375, -1.625, -5, -2, 1.375, 5.375, 0.5, 5, 1.5, 1.375, 3.375}},
	{"3d depthwise multiplier 2", []int{1, 3, 4, 4, 4}, []int{6, 1, 3, 3, 3}, true, []int64{2, 2, 2}, []int64{1, 1, 1}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 3, []int{1, 6, 2, 2, 2}, []float64{-1.125, -7, -2, -5.375, -3.125, -1.5, -3.75, 1.25, 1.375, 3.5, 3.375, 2.875, 6, -6, 0.375, -6.125, 2, -5.875, -1.75, -7.625, -4.75, -5, -0.25, 1.375, -0.25, 7.375, 5.375, 3.5, 5.5, 1.375, 4, -4.375, 2.75, 0.125, 2, -5.125, -1.25, -6.75, 0.5, -3.25, -6, 0.75, -4.375, 0.375, 0.5, 1, 1.75, -6.25}},
	{"3d depthwise dilated", []int{1, 2, 5, 5, 5}, []int{2, 1, 3, 3, 3}, false, []int64{1, 1, 1}, []int64{2, 2, 2}, []int64{2, 2, 2}, false, []int64{0, 0, 0}, 2, []int{1, 2, 5, 5, 5}, []float64{0.75, -0.625, -3.625, -3.375, 2.5, -2, -0.625, 2.75, 1.25, 3, 2.25, 1.75, 2.875, -3.25, -5.25, -1.5, -3.75, 0.875, 3.375, 0.125, 2.375, 0.125, 2.25, 2.25, -3.75, -0.625, -0.625, -2, -0.875, 2.25, 0.75, 3.5, -1.125, -1.75, 2.75, -3.375, 0.25, 2.625, -2.375, -3, 0, -0.875, 5, -0.875, 0, -1.625, -2.5, 0.875, 2.125, -2.5, -1.875, 3.5, 2.25, 5.75, -3.375, 0.25, 1.5, -5.125, -5.5, 4.625, -8.625, -0.625, 9.125, 0.25, 8.5, 0.25, 3.25, 2.75, -5.5, -3.25, -1.25, -5.125, -1.125, 5.75, 1.125, 4.25, -1.125, -1.25, 2.125, -1.5, -0.625, 0.875, -2, -0.875, 2.375, -1.375, 5.5, -3.5, -2.375, 3.75, -3.125, 0.875, 0.625, -1.75, -2.125, 0.375, -1.125, 4.5, -0.875, -1.25, 0.5, -3.5, -2.25, 2.25, 0, -0.25, 2.625, 1.125, 3.375, -1.625, 2.75, 1.375, -8.625, -3.25, 4.25, -3.5, 0.5, 2.125, 1.25, 2.25, 0, 2.625, 0.5, -3.375, -2.375, -0.875, 2.25, -0.125, 0.375, 0.5, -1.75, 2.75, 0.125, -3.125, -0.25, -2.375, -3, 7.375, -1.375, 2.75, -0.875, 0, 0.625, -0.625, -3.5, 2.125, -2.5, -1.375, 4.25, 0, 3, -2.125, -3, -0.625, 0.875, -3.375, 2.5, 1.375, 0, 4.25, -0.125, 4.75, 2.875, -6.875, 1.375, -3.75, -1.5, 0.25, 0.375, -1.125, 3.375, 0.125, 2.375, -0.25, -3.125, 4.5, -3.25, -6, -0.625, 3.25, -2.625, 4.75, -0.75, 0.875, 0.625, -5.25, 7.125, -4, -6.5, 2, -4.25, -3.375, 7.375, 0.625, 3.5, -2.625, -1.75, 2.375, -1.5, -4.125, 2.25, 0, -1.875, 2.375, -0.875, 3.375, -1.625, -4.625, -1.5, 2.125, -3.25, 4.25, -1.625, 2.25, 4.125, 1.25, 2.25, 0.375, -2, -0.625, -3.375, -2.375, 0.875, 0.75, 0.75, 2.375, 0.125, 2.25, 2.25, -3.75, 2.125, -1.5, -4.625, -1.625, 3.375, 0, 4.75, -2.75, 2.375, 0.125, -1.25, 2.5, -2.625, -2, -0.625, -1.75, -2.125, 4.75, 0.75, 0.75}},
	{"3d pointwise", []int{1, 3, 2, 2, 3}, []int{2, 3, 1, 1, 1}, true, []int64{1, 1, 1}, []int64{0, 0, 0}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 1, []int{1, 2, 2, 2, 3}, []float64{0.375, -3.25, 0, -3.625, -3.125, 0.125, -3.5, -3, 0.25, -3.375, -2.875, 0.375, 2.75, 0.375, 3.5, -0.25, 0.125, 3.25, -0.5, -0.125, 3, -0.75, -0.375, 2.75}},
	{"3d spatial 1x3x3", []int{1, 2, 4, 5, 5}, []int{3, 2, 1, 3, 3}, true, []int64{1, 2, 2}, []int64{0, 1, 1}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 1, []int{1, 3, 4, 3, 3}, []float64{-1, -6.125, -2.25, -7, -0.125, 3.875, 3.5, -2.875, -5.875, 3.5, -5.75, -2.125, -7, -2.5, 4.375, -1, 2.75, -5.625, 3.875, -2.625, -3.375, -7, -7.625, -0.625, -1.375, 7, -2.625, 0.125, -2.25, -4.625, -1.5, -8.625, -0.125, -4.5, 3, -2.375, -2.625, -3.25, 2.75, -0.75, 14.25, -0.75, 2.75, -3.25, -2.625, -0.25, -3.125, 3, -3.75, 10.125, -0.5, 6.625, -0.625, -2.25, -0.625, -3, 0.5, -4, 0.5, 9.375, 6.375, 2, -1.875, 3.125, -2.875, -2, -2.875, -2.25, 9.625, 0.625, 6, -1.5, -4.875, -1.875, 4.5, 4.875, 0.875, -6, -1.25, -5.125, 0, -3.75, -2, 4.875, -1.125, 4.625, -6, 1.375, -5.5, -0.375, -4, -4.875, 1.125, -1.625, 9.75, -0.5, 1.25, -4.5, -3.5, -1.5, -5, -2.625, -4.875, 5.25, -0.5, 2.5, -2.125, -3.875}},
	{"3d temporal 3x1x1", []int{1, 3, 4, 2, 3}, []int{2, 3, 3, 1, 1}, false, []int64{1, 1, 1}, []int64{1, 0, 0}, []int64{1, 1, 1}, false, []int64{0, 0, 0}, 1, []int{1, 2, 4, 2, 3}, []float64{-3.125, 2.625, -1.25, -1, 4.75, -1.875, 2, 2.5, -2.5, -2, -1.5, -2.375, 2.25, -1.375, 0.5, 5.125, -2.625, 2, 1.375, -2.125, -1.5, -2.25, -1.625, 3.125, 4.75, -1, -1.25, 2.625, -3.125, -0.625, -0.875, -2.625, 5.25, -0.625, -2.375, 5.5, -1.75, -2.125, 3, -4.25, 0.875, -0.875, -0.5, 2.25, -0.5, -0.5, 2.25, -1.875}},
	{"3d single-value lists", []int{1, 1, 4, 4, 4}, []int{1, 1, 2, 2, 2}, false, []int64{2}, []int64{1}, []int64{1}, false, []int64{0}, 1, []int{1, 1, 3, 3, 3}, []float64{1.875, 0.5, -0.625, 1.625, -0.625, 0.625, 0.25, -0.125, 0.375, 1.125, -0.125, 0.25, 1.875, -1.75, 0.875, 0.375, -0.5, 0.75, -0.25, -1, 0, -1.5, -2.625, 1.875, -0.75, -1.5, 1.5}},
	{"transposed 3d", []int{1, 2, 2, 3, 3}, []int{2, 3, 3, 3, 3}, true, []int64{2, 2, 2}, []int64{1, 1, 1}, []int64{1, 1, 1}, true, []int64{1, 1, 1}, 1, []int{1, 3, 4, 6, 6}, []float64{-1.375, 0.125, -1.25, -4.5, -2.5, -0.125, -2.875, 1.5, 0.125, -2.25, -2.375, -3.25, -2.375, -4.125, -0.875, -4.625, -2.125, -0.125, -2.125, -2.875, -3.25, 0.25, -1.625, -3.25, -2, -4.25, -3.25, -0.625, -1.75, -0.125, -1.75, -1.625, -2.625, -4.75, -2.125, -1.375, -2.875, -5.125, -1.375, 1.5, -4, -3, -5.5, -1, -0.375, -3.625, 0.625, -3.5, -1.125, -4.5, -2.375, -0.625, -0.875, -1.625, -2.5, 3.5, -1.5, -7.375, -4.625, -0.75, -2.125, 0.25, -2, -1.375, -1.875, -1.625, -3.25, -3.875, 1.125, -1.875, -5.5, -1.75, -1.625, -4.375, -2.875, -0.75, -1.375, -0.125, -0.625, -2, -3.125, -4.375, -2.875, 0.875, -1.25, -4.5, -2.5, 0.5, -2.375, -4.25, 0.125, -2.25, -2.375, -1.875, -2.125, -1.875, -0.875, -4.625, -2.125, 0.375, -2, -4.25, -1.375, -0.875, -2.25, -1.25, -1.75, -2.25, -1.625, 0.25, -1.75, -0.625, -3.25, -2, -1.375, -2.125, -1.625, 0.25, -3.25, -3, -2, 0.375, -2.125, -4.625, -0.875, -1.875, -2.125, -1.875, -2.375, -2.25, 0.125, -1.375, -2.375, 0.5, -2.5, -4.5, -1.25, -1.75, -2.875, -1.875, -2.625, -2.625, -1, -1.5, 0.375, 1.375, 1.25, 1.75, 0.75, 0.5, -0.125, -2.5, 1.625, 4.5, 0.625, 0.625, 1.625, -0.25, 1.125, 1.5, 0.625, 0.875, 2.375, -0.75, 0, 0.75, 0.375, 1.375, 1.5, 2.25, 1, -1.5, 0.5, 1.25, 1.75, 3.125, 1.625, 2.25, 0.125, 0.875, 3.25, 0.375, -2.5, 1.125, 4.125, -1, 2, -1, 2.125, 1.25, -1.875, 3.625, -0.25, 2.625, -1.875, 0.625, 2, 2.125, -0.375, -1.125, 5.25, 2.5, -2.875, -1.625, 0.375, -0.625, 2.875, 1.5, 2.625, 1.125, 1.875, -1.25, -1, 4.5, 1.625, -2.5, 1.375, 2, 0.875, -1.75, 0.375, 1.625, 1.875, 4.125, 0.875, 2.875, -0.125, 0.125, 1.25, 1.75, 0.75, 2.125, 1.625, 0.625, 1.625, 4.5, 0.625, -0.875, 2.375, 0.875, 1.125, 1.5, 0.625, 1.875, 1.5, 1, 0.625, 3.5, 0.5, -1.5, 1.75, 1.25, -1.25, 0.5, 2.875, 1.875, 2.875, -0.25, 1.125, 0.5, -0.25, 0.5, 3.875, -0.25, -1.25, 0.5, 2.875, 0.5, -1.25, 2.125, 1.125, 0.5, -0.25, 0.5, 1.125, 3.125, -1.25, 0.5, 2.875, 0.5, -1.25, 1.75, 2.625, -0.125, 1, 0.625, 0.75, 2, -2.875, -0.625, -1.25, -1.375, -1, -1.25, 2, -3.625, -3.625, 1, 0.375, -1.375, 0.625, 1.25, -1.875, -0.875, -1.625, -1.375, -2.5, 3.375, -2.625, -0.25, 0, -1.625, 0, -2.375, 0.25, -0.375, -2.25, -1.5, -3.25, -1.5, 0.875, -0.125, 0.875, -1.875, 0, 1.75, -0.75, -6, -1.5, 2.125, -0.75, 1, 0.5, -1.5, -2.375, -3.875, -0.875, -2.25, -0.25, -3.125, -1, 0, 0.25, -3.75, -2.625, 4.75, 0, -4.875, -0.375, -2.125, -2.5, 1.125, -0.5, 0.625, -0.625, -0.125, -2, -2.875, -0.625, -0.375, -0.625, -1.875, -0.375, 0.125, -2.875, -1.625, -3.25, 0.875, 0.75, -2.75, 2, -2.125, -1.25, -1.375, -1, -2.125, 0.625, -0.375, -3.625, 1, 0.375, -4, -2.5, 0.375, -1.875, -0.875, -1.625, -1.625, 0, -0.5, -3.25, -1.5, 0.875, -1.5, -3.25, -0.25, -0.625, -3.375, -1.875, 0.25, -0.375, 0.875, 0.375, -1, -2.125, -3.375, -1.875, 1.875, -0.25, -3.5, -1.5, 1.5, -1.375, -3.25, 1.125, -1.25, -1.375, -0.875, -1.125, -0.875, 0.125, -3.625, -1.125, 1.375, -1, -3.25, -0.375, 0.125, -1.25, -0.25, -0.75, -1.25}},
	{"transposed 3d groups dilation", []int{1, 4, 2, 2, 2}, []int{4, 1, 2, 2, 2}, false, []int64{1, 1, 1}, []int64{0, 0, 0}, []int64{2, 2, 2}, true, []int64{0, 0, 0}, 2, []int{1, 2, 4, 4, 4}, []float64{0.875, 0, -1.25, 0.5, 0.5, -3.125, -0.5, 1.25, 1, -0.75, -0.25, 0.625, 0.25, 1.25, 0.125, -3.125, 0.125, 0.625, 0.25, -0.75, -0.25, 0.25, 1, 0, -0.5, 0.5, 0.5, 0, -1.25, -0.25, 0.875, 0.375, -2.375, 1.125, -0.125, -0.125, -0.875, 1.25, -0.125, 1.25, 2.125, -1.375, 0.875, 0, 0.625, 1.25, 0.5, -3.125, 0.625, -1.375, -0.125, -0.125, 2.125, 0.125, -0.125, -0.125, -0.875, 1.125, 0.125, 0.625, -2.375, -0.375, -0.25, 0.25, 0.5, -1.25, 0, 0.875, -0.25, 0.75, 0.375, -0.125, -1.375, 2.125, -0.125, -0.125, 0.125, -1.875, -0.125, -0.125, -1, 0, 0.75, 0.25, 1, -0.75, -0.25, 0.625, 1.625, -0.375, -0.125, -0.125, -2.375, 1.125, -0.125, -0.125, 1.125, -2.375, 0.625, -0.25, -0.375, 1.625, 0.25, 0.75, -0.75, 1, 0.5, -1.25, 0, -1, -0.25, 0.75, -1.875, 0.125, -0.125, 0.375, 2.125, -1.375, 0.875, 0, 0.75, -0.25, -1, 0, -1.25, 0.5, 1, -0.75}},
	{"transposed 3d depthwise uneven", []int{1, 2, 2, 2, 3}, []int{2, 1, 2, 3, 2}, true, []int64{2, 1, 2}, []int64{0, 1, 0}, []int64{1, 1, 1}, true, []int64{1, 0, 1}, 2, []int{1, 2, 5, 2, 7}, []float64{-3.875, 0.5, -2.375, -2.25, -0.875, -2.25, -2, -3.875, -3.875, -1.25, -2, -2.75, -1.5, -2, -3.875, -3.875, -1.625, -2.375, -2.125, -0.875, -2, 0.5, -3.875, -2.25, -1.25, -2.25, -2.75, -2, -3.125, -2.25, -1.625, -2.25, -0.125, -2.25, -2, -0.5, -2.25, -2, -1.75, -3.5, -1.25, -2, -1.375, -3.125, -1.875, -1.625, -2.375, -0.125, -2, -2.25, -0.5, -2.25, -2, -2.25, -3.5, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, 0.375, 1.375, 1.375, 0.875, -0.375, 1.75, 1, 0.625, 0.75, 2.125, 0.75, -0.5, 0.75, 1, 1.125, 0.375, 0.125, 1.375, 1.875, -0.375, 1, 1.375, 0.625, 0.875, 2.125, 1.75, -0.5, 1, 0.875, 1.125, 1.875, 0.625, 0.125, 1.5, 1, 1.375, 0.75, 2.875, 0.75, 0.25, 0.75, 1, 0.625, 0.875, -0.375, 1.875, 1.375, 0.125, 1, 1.125, 1.375, 0.625, 2.875, 1.5, 0.25, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
}

// args builds the arguments of a case in dtype.
func (c convolutionCase) args(t testing.TB, dtype executor.ScalarType, out *executor.Tensor) []any {
	in := linalgTensor(t, dtype, linalgSeq(linalgNumel(c.in), 7, 11, 5, 0.5), c.in...)
	w := linalgTensor(t, dtype, linalgSeq(linalgNumel(c.w), 5, 7, 3, 0.25), c.w...)
	var bias any = none
	if c.bias {
		oc := c.w[0]
		if c.transposed {
			oc = c.groups * c.w[1]
		}
		bias = linalgTensor(t, dtype, linalgSeq(oc, 3, 5, 2, 1), oc)
	}
	return []any{in, w, bias, c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out}
}

func TestConvolution(t *testing.T) {
	for _, dtype := range []executor.ScalarType{executor.Float32, executor.Float64, executor.Float16, executor.BFloat16} {
		for _, c := range convolutionCases {
			t.Run(executor.DTypeName(dtype)+"/"+c.name, func(t *testing.T) {
				out := empty(t, dtype, c.sizes...)
				if err := call(t, "aten::convolution.out", c.args(t, dtype, out)...); err != nil {
					t.Fatal(err)
				}
				wantValuesAny(t, out, c.sizes, c.want)
			})
		}
	}
}

// convolutionReference computes a convolution from its definition, in float64, for the sizes
// of a case (input [N, C, D, H, W], [N, C, H, W] or [N, C, L]).
func convolutionReference(c convolutionCase, in, w, bias []float64) ([]int, []float64) {
	p := func(l []int64, d int) int { return int(l[min(d, len(l)-1)]) }
	sp := len(c.in) - 2
	// As 3-D, the missing leading spatial dimensions of size 1.
	is, ws := []int{c.in[0], c.in[1], 1, 1, 1}, []int{c.w[0], c.w[1], 1, 1, 1}
	copy(is[5-sp:], c.in[2:])
	copy(ws[5-sp:], c.w[2:])
	s, pad, dil, op := [3]int{1, 1, 1}, [3]int{}, [3]int{1, 1, 1}, [3]int{}
	for d := 0; d < sp; d++ {
		k := d + 3 - sp
		s[k], pad[k], dil[k] = p(c.stride, d), p(c.padding, d), p(c.dilation, d)
		if c.transposed {
			op[k] = p(c.outPadding, d)
		}
	}
	n, ch, g := is[0], is[1], c.groups
	isp, ksp := is[2:], ws[2:]
	cg := ch / g
	var oc int
	var osp [3]int
	for k := range 3 {
		if c.transposed {
			osp[k] = (isp[k]-1)*s[k] - 2*pad[k] + dil[k]*(ksp[k]-1) + op[k] + 1
		} else {
			osp[k] = (isp[k]+2*pad[k]-dil[k]*(ksp[k]-1)-1)/s[k] + 1
		}
	}
	if c.transposed {
		oc = g * ws[1]
	} else {
		oc = ws[0]
	}
	ocg := oc / g
	ivol, ovol, kvol := isp[0]*isp[1]*isp[2], osp[0]*osp[1]*osp[2], ksp[0]*ksp[1]*ksp[2]
	out := make([]float64, n*oc*ovol)
	for b := 0; b < n; b++ {
		for o := 0; o < oc; o++ {
			for i := 0; i < ovol; i++ {
				if bias != nil {
					out[(b*oc+o)*ovol+i] = bias[o]
				}
			}
		}
	}
	// pos is the flat index of (z, y, x) in a volume of sizes sz, or -1 outside it.
	pos := func(sz []int, z, y, x int) int {
		if z < 0 || z >= sz[0] || y < 0 || y >= sz[1] || x < 0 || x >= sz[2] {
			return -1
		}
		return (z*sz[1]+y)*sz[2] + x
	}
	for b := 0; b < n; b++ {
		for grp := 0; grp < g; grp++ {
			for ci := 0; ci < cg; ci++ {
				for o := 0; o < ocg; o++ {
					for kz := 0; kz < ksp[0]; kz++ {
						for ky := 0; ky < ksp[1]; ky++ {
							for kx := 0; kx < ksp[2]; kx++ {
								kat := (kz*ksp[1]+ky)*ksp[2] + kx
								src := in[(b*ch+grp*cg+ci)*ivol : (b*ch+grp*cg+ci+1)*ivol]
								dst := out[(b*oc+grp*ocg+o)*ovol : (b*oc+grp*ocg+o+1)*ovol]
								if c.transposed {
									wv := w[((grp*cg+ci)*ocg+o)*kvol+kat]
									for iz := 0; iz < isp[0]; iz++ {
										for iy := 0; iy < isp[1]; iy++ {
											for ix := 0; ix < isp[2]; ix++ {
												at := pos(osp[:], iz*s[0]-pad[0]+kz*dil[0], iy*s[1]-pad[1]+ky*dil[1], ix*s[2]-pad[2]+kx*dil[2])
												if at >= 0 {
													dst[at] += wv * src[pos(isp, iz, iy, ix)]
												}
											}
										}
									}
									continue
								}
								wv := w[((grp*ocg+o)*cg+ci)*kvol+kat]
								for oz := 0; oz < osp[0]; oz++ {
									for oy := 0; oy < osp[1]; oy++ {
										for ox := 0; ox < osp[2]; ox++ {
											at := pos(isp, oz*s[0]-pad[0]+kz*dil[0], oy*s[1]-pad[1]+ky*dil[1], ox*s[2]-pad[2]+kx*dil[2])
											if at >= 0 {
												dst[pos(osp[:], oz, oy, ox)] += wv * src[at]
											}
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return append([]int{n, oc}, osp[3-sp:]...), out
}

// TestConvolutionReference compares larger convolutions, which cross the matrix-multiply
// blocks and take every path (im2col, pointwise, depthwise, transposed), with the definition.
func TestConvolutionReference(t *testing.T) {
	// The reference itself agrees with torch on the small cases.
	for _, c := range convolutionCases {
		var bias []float64
		if c.bias {
			oc := c.w[0]
			if c.transposed {
				oc = c.groups * c.w[1]
			}
			bias = linalgSeq(oc, 3, 5, 2, 1)
		}
		sizes, got := convolutionReference(c, linalgSeq(linalgNumel(c.in), 7, 11, 5, 0.5), linalgSeq(linalgNumel(c.w), 5, 7, 3, 0.25), bias)
		if !slices.Equal(sizes, c.sizes) || !slices.Equal(got, c.want) {
			t.Fatalf("reference for %q: %v %v, want %v %v", c.name, sizes, got, c.sizes, c.want)
		}
	}
	r := rand.New(rand.NewSource(7))
	ints := func(n, lim int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(2*lim+1) - lim)
		}
		return v
	}
	l := func(v ...int64) []int64 { return v }
	for _, c := range []convolutionCase{
		{name: "im2col 16ch 24x24", in: []int{1, 16, 24, 24}, w: []int{8, 16, 3, 3}, bias: true, stride: l(1), padding: l(1), dilation: l(1), outPadding: l(0), groups: 1},
		{name: "im2col stride 2 groups 2", in: []int{2, 6, 11, 9}, w: []int{4, 3, 3, 2}, stride: l(2, 3), padding: l(1, 2), dilation: l(1, 2), outPadding: l(0), groups: 2},
		{name: "pointwise groups 4", in: []int{1, 8, 5, 30}, w: []int{12, 2, 1, 1}, bias: true, stride: l(1), padding: l(0), dilation: l(3), outPadding: l(0), groups: 4},
		{name: "pointwise stride 2", in: []int{1, 4, 7, 7}, w: []int{3, 4, 1, 1}, stride: l(2), padding: l(0), dilation: l(1), outPadding: l(0), groups: 1},
		{name: "depthwise 5x5 stride 2", in: []int{2, 4, 13, 12}, w: []int{8, 1, 5, 5}, bias: true, stride: l(2), padding: l(2), dilation: l(1), outPadding: l(0), groups: 4},
		{name: "1-D long", in: []int{1, 5, 700}, w: []int{6, 5, 4}, bias: true, stride: l(1), padding: l(3), dilation: l(2), outPadding: l(0), groups: 1},
		{name: "transposed stride 3 groups 2", in: []int{2, 4, 5, 4}, w: []int{4, 3, 3, 2}, bias: true, stride: l(3, 2), padding: l(1, 0), dilation: l(1, 2), transposed: true, outPadding: l(2, 1), groups: 2},
		{name: "transposed 1-D", in: []int{1, 70, 9}, w: []int{70, 3, 4}, stride: l(2), padding: l(1), dilation: l(1), transposed: true, outPadding: l(1), groups: 1},
		{name: "3-D im2col r3d stem", in: []int{1, 3, 4, 32, 32}, w: []int{4, 3, 3, 7, 7}, bias: true, stride: l(1, 2, 2), padding: l(1, 3, 3), dilation: l(1), outPadding: l(0), groups: 1},
		{name: "3-D im2col groups 2 dilated", in: []int{2, 4, 6, 9, 8}, w: []int{6, 2, 3, 3, 2}, stride: l(2, 1, 3), padding: l(2, 1, 1), dilation: l(2, 1, 2), outPadding: l(0), groups: 2},
		{name: "3-D pointwise", in: []int{1, 8, 3, 5, 30}, w: []int{12, 4, 1, 1, 1}, bias: true, stride: l(1), padding: l(0), dilation: l(1), outPadding: l(0), groups: 2},
		{name: "3-D depthwise", in: []int{1, 4, 5, 9, 10}, w: []int{8, 1, 3, 5, 3}, bias: true, stride: l(1, 2, 2), padding: l(1, 2, 1), dilation: l(2, 1, 1), outPadding: l(0), groups: 4},
		{name: "3-D transposed", in: []int{2, 4, 3, 4, 3}, w: []int{4, 3, 3, 2, 3}, bias: true, stride: l(2, 3, 2), padding: l(1, 0, 1), dilation: l(1, 2, 1), transposed: true, outPadding: l(1, 2, 0), groups: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, w := ints(linalgNumel(c.in), 3), ints(linalgNumel(c.w), 2)
			oc := c.w[0]
			if c.transposed {
				oc = c.groups * c.w[1]
			}
			var bias []float64
			var biasArg any = none
			if c.bias {
				bias = ints(oc, 5)
				biasArg = linalgTensor(t, executor.Float32, bias, oc)
			}
			sizes, want := convolutionReference(c, in, w, bias)
			out := empty(t, executor.Float32, sizes...)
			err := call(t, "aten::convolution.out", linalgTensor(t, executor.Float32, in, c.in...), linalgTensor(t, executor.Float32, w, c.w...), biasArg,
				c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out)
			if err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, out, sizes, want)
		})
	}
}

func TestConvolutionMore(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	conv := func(in, w, bias any, stride, padding, dilation []int64, transposed bool, outPadding []int64, groups int, out *executor.Tensor) error {
		return call(t, "aten::convolution.out", in, w, bias, stride, padding, dilation, transposed, outPadding, groups, out, out)
	}
	c0 := convolutionCases[0] // "2d pad 1 bias"

	// Integral convolution: torch.nn.functional.conv2d on int32 linalgSeq(n, 7, 11, 5, 1),
	// linalgSeq(n, 5, 7, 3, 1), bias linalgSeq(3, 3, 5, 2, 1), padding 1.
	out := empty(t, executor.Int32, 1, 3, 4, 4)
	if err := conv(linalgTensor(t, executor.Int32, linalgSeq(32, 7, 11, 5, 1), 1, 2, 4, 4), linalgTensor(t, executor.Int32, linalgSeq(54, 5, 7, 3, 1), 3, 2, 3, 3),
		linalgTensor(t, executor.Int32, linalgSeq(3, 3, 5, 2, 1), 3), l(1), l(1), l(1), false, l(0), 1, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{1, 3, 4, 4}, []float64{-31, 37, -6, 7, 14, 8, -2, 25, -41, 12, 13, -43, 9, 20, -9, -17, 9, 24, -5, 10, -18, -35, 20, -13,
		5, 9, 9, -3, 6, -40, 33, -18, 2, -43, 19, -6, -6, 8, -26, -7, 18, -62, 14, 4, -16, 0, 21, -3})

	// int8 wraps as torch's does: 4·100·3 = 1200 → -80.
	out8 := empty(t, executor.Int8, 1, 1, 2, 2)
	if err := conv(tensor(t, []int8{100, 100, 100, 100, 100, 100, 100, 100, 100}, 1, 1, 3, 3), tensor(t, []int8{3, 3, 3, 3}, 1, 1, 2, 2), none, l(1), l(0), l(1), false, l(0), 1, out8); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out8, []int{1, 1, 2, 2}, []float64{-80, -80, -80, -80})

	// A float64 bias on a float32 convolution (ExecuTorch converts the bias).
	args := c0.args(t, executor.Float32, empty(t, executor.Float32, c0.sizes...))
	args[2] = linalgTensor(t, executor.Float64, linalgSeq(3, 3, 5, 2, 1), 3)
	if err := call(t, "aten::convolution.out", args...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, args[9].(*executor.Tensor), c0.sizes, c0.want)

	// Dynamic out, resized to the result.
	dyn := dynamic(t, executor.Float32, 2, 3, 5, 5)
	if err := call(t, "aten::convolution.out", c0.args(t, executor.Float32, dyn)...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, dyn, c0.sizes, c0.want)

	// Empty batch; no input channels gives no output channels (as in torch).
	w := linalgTensor(t, executor.Float32, linalgSeq(54, 5, 7, 3, 0.25), 3, 2, 3, 3)
	outN := empty(t, executor.Float32, 0, 3, 4, 4)
	if err := conv(empty(t, executor.Float32, 0, 2, 4, 4), w, none, l(1), l(1), l(1), false, l(0), 1, outN); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outN, []int{0, 3, 4, 4}, nil)
	outC := empty(t, executor.Float32, 1, 0, 2, 2)
	if err := conv(empty(t, executor.Float32, 1, 0, 4, 4), empty(t, executor.Float32, 3, 0, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, outC); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outC, []int{1, 0, 2, 2}, nil)

	// A transposed convolution's weight with one output channel per group may come in dim
	// order [1, 0, 2, 3]: the same memory layout, so it is accepted ("transposed 2d groups
	// dilation" has weight [4, 1, 2, 2]).
	ct := convolutionCases[12]
	if ct.name != "transposed 2d groups dilation" {
		t.Fatalf("case 12 is %q", ct.name)
	}
	outT := empty(t, executor.Float32, ct.sizes...)
	args = ct.args(t, executor.Float32, outT)
	args[1] = linalgWithDimOrder(t, args[1].(*executor.Tensor), []uint8{1, 0, 2, 3})
	if err := call(t, "aten::convolution.out", args...); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, outT, ct.sizes, ct.want)
}

func TestConvolutionErrors(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	f32 := func(s ...int) *executor.Tensor { return empty(t, executor.Float32, s...) }
	in, w := f32(1, 2, 4, 4), f32(3, 2, 3, 3)
	conv := func(in, w, bias any, stride, padding, dilation []int64, transposed bool, outPadding []int64, groups int, out *executor.Tensor) error {
		return call(t, "aten::convolution.out", in, w, bias, stride, padding, dilation, transposed, outPadding, groups, out, none)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"rank", conv(in, f32(3, 2, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 1 (weight): want a 4-D tensor like input, got 3-D sizes [3 2 3]"},
		{"rank 6", conv(f32(1, 1, 2, 2, 2, 2), f32(1, 1, 1, 1, 1, 1), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 1, 2, 2, 2, 2)), "want a 3-D [N, C, L], 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, got 6-D"},
		{"rank 2", conv(f32(2, 4), f32(1, 2), none, l(1), l(0), l(1), false, l(0), 1, f32(2, 4)), "argument 0 (input): want a 3-D [N, C, L], 4-D [N, C, H, W] or 5-D [N, C, D, H, W] tensor, got 2-D"},
		{"3-D weight rank", conv(f32(1, 2, 3, 4, 4), f32(3, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 1, 2, 2)), "argument 1 (weight): want a 5-D tensor like input, got 4-D"},
		{"3-D stride length", conv(f32(1, 2, 3, 4, 4), f32(3, 2, 1, 1, 1), none, l(1, 1), l(0), l(1), false, l(0), 1, f32(1, 3, 3, 4, 4)), "argument 3 (stride): want 1 or 3 values, got 2"},
		{"3-D depth too small", conv(f32(1, 2, 2, 4, 4), f32(3, 2, 3, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 1, 2, 2)), "input spatial sizes [2 4 4] with kernel [3 3 3], stride [1 1 1], padding [0 0 0], dilation [1 1 1] give output sizes [0 2 2]"},
		{"3-D output padding", conv(f32(1, 3, 2, 2, 2), f32(3, 1, 3, 3, 3), none, l(1, 2, 2), l(0), l(1), true, l(1, 0, 0), 1, f32(1, 1, 4, 5, 5)), "output_padding): 1 must be smaller than either stride (1) or dilation (1)"},
		{"channels vs groups", conv(in, f32(4, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 2, f32(1, 4, 2, 2)), "argument 0 (input): has 2 channels; weight [4 2 3 3] with groups = 2 expects 4"},
		{"groups divide", conv(in, f32(3, 1, 3, 3), none, l(1), l(0), l(1), false, l(0), 2, f32(1, 3, 2, 2)), "size(0) = 3 is not a positive multiple of groups = 2"},
		{"groups zero", conv(in, w, none, l(1), l(0), l(1), false, l(0), 0, f32(1, 3, 2, 2)), "argument 8 (groups): want a positive number"},
		{"transposed channels", conv(in, f32(3, 2, 3, 3), none, l(1), l(0), l(1), true, l(0), 1, f32(1, 2, 6, 6)), "a transposed convolution's weight [3 2 3 3] expects 3"},
		{"kernel too large", conv(in, f32(3, 2, 5, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 1, 2)), "give output sizes [0 2]; each must be at least 1"},
		{"dilated kernel too large", conv(f32(1, 2, 5), f32(3, 2, 3), none, l(2), l(0), l(3), false, l(0), 1, f32(1, 3, 1)), "give output sizes [0]"},
		{"transposed output negative", conv(f32(1, 3, 1, 1), f32(3, 1, 1, 1), none, l(1), l(1), l(1), true, l(0), 1, f32(1, 1, 1, 1)), "give output sizes [-1 -1]"},
		{"bias length", conv(in, w, f32(2), l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 2 (bias): sizes [2]; want [3]"},
		{"bias rank", conv(in, w, f32(1, 3), l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 2 (bias): sizes [1 3]"},
		{"stride zero", conv(in, w, none, l(0), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 3 (stride): value 0 out of range"},
		{"padding negative", conv(in, w, none, l(1), l(0, -1), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 4 (padding): value -1 out of range"},
		{"dilation length", conv(in, w, none, l(1), l(0), l(1, 1, 1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 5 (dilation): want 1 or 2 values, got 3"},
		{"empty stride", conv(in, w, none, l(), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "argument 3 (stride): want 1 or 2 values, got 0"},
		{"output padding", conv(f32(1, 3, 2, 2), f32(3, 1, 3, 3), none, l(2), l(0), l(1), true, l(2), 1, f32(1, 1, 6, 6)), "output_padding): 2 must be smaller than either stride (2) or dilation (1)"},
		{"dtype", conv(in, empty(t, executor.Float64, 3, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "weight is float64 but input is float32"},
		{"bool", conv(empty(t, executor.Bool, 1, 2, 4, 4), empty(t, executor.Bool, 3, 2, 3, 3), none, l(1), l(0), l(1), false, l(0), 1, empty(t, executor.Bool, 1, 3, 2, 2)), "dtype bool is not supported"},
		{"out size", conv(in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 4, 4)), "cannot resize a static tensor"},
		{"out rank", conv(in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(3, 2, 2)), "argument 9 (out): want a 4-D tensor like input"},
		{"channels last", conv(linalgWithDimOrder(t, tensor(t, linalgSeqF32(32), 1, 2, 4, 4), []uint8{0, 2, 3, 1}), w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)),
			"argument 0 (input): dim order [0 2 3 1] is not supported; this kernel needs the default (contiguous) dim order"},
		{"stride type", call(t, "aten::convolution.out", in, w, none, 1, l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2), none), "argument 3 (stride): want IntList, got Int"},
		{"bias type", call(t, "aten::convolution.out", in, w, 1.5, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2), none), "argument 2 (bias): want Tensor, got Double"},
		{"arg count", call(t, "aten::convolution.out", in, w, none, l(1), l(0), l(1), false, l(0), 1, f32(1, 3, 2, 2)), "10 arguments, the schema takes 11"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, tc.want) })
	}
}

func linalgSeqF32(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

func BenchmarkConv2d_3x3_64ch(b *testing.B) {
	in := linalgTensor(b, executor.Float32, linalgSeq(64*56*56, 7, 11, 5, 0.5), 1, 64, 56, 56)
	w := linalgTensor(b, executor.Float32, linalgSeq(64*64*9, 5, 7, 3, 0.25), 64, 64, 3, 3)
	bias := linalgTensor(b, executor.Float32, linalgSeq(64, 3, 5, 2, 1), 64)
	out := empty(b, executor.Float32, 1, 64, 56, 56)
	l := []int64{1, 1}
	b.ResetTimer()
	for range b.N {
		if err := call(b, "aten::convolution.out", in, w, bias, l, l, l, false, []int64{0, 0}, 1, out, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*64*64*9*56*56*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// TestConvolutionOverhang runs a grid of convolutions whose windows are wider than their input,
// overhanging it on one or both sides (kernel > input, padding on both sides, dilation, stride
// past the input), through every path (im2col, depthwise, pointwise, transposed, 1-D, 2-D and 3-D),
// against the definition. Issue 20: a depthwise 9×9 over a 3×3 input with padding 4 sliced
// before its input.
func TestConvolutionOverhang(t *testing.T) {
	l := func(v ...int64) []int64 { return v }
	var cases []convolutionCase
	// The layer: nn.Conv2d(300, 300, 9, padding=4, groups=300) on 1×300×3×3.
	cases = append(cases, convolutionCase{name: "issue 20 depthwise 300", in: []int{1, 300, 3, 3}, w: []int{300, 1, 9, 9}, bias: true,
		stride: l(1), padding: l(4), dilation: l(1), outPadding: l(0), groups: 300})
	type geom struct{ in, k, s, p, d, op int }
	var dims []geom
	for _, in := range []int{1, 2, 3} {
		for _, k := range []int{1, 2, 4, 7} {
			for _, s := range []int{1, 2, 5} {
				for _, p := range []int{0, 1, 3, 5} {
					for _, d := range []int{1, 3} {
						dims = append(dims, geom{in, k, s, p, d, 0})
					}
				}
			}
		}
	}
	i := 0
	for _, transposed := range []bool{false, true} {
		for _, g := range dims {
			for _, gr := range []struct{ c, oc, groups int }{{1, 1, 1}, {2, 3, 1}, {4, 4, 4}, {4, 6, 2}} {
				i++
				op := 0
				if transposed {
					op = i % max(g.s, g.d) // output_padding below stride or dilation
				}
				span := g.d*(g.k-1) + 1
				if !transposed && g.in+2*g.p < span || transposed && (g.in-1)*g.s-2*g.p+span+op < 1 {
					continue // torch refuses these
				}
				w := []int{gr.oc, gr.c / gr.groups}
				if transposed {
					w = []int{gr.c, gr.oc / gr.groups}
				}
				c := convolutionCase{bias: i%2 == 0, transposed: transposed, groups: gr.groups, outPadding: l(int64(op))}
				if i%3 == 0 { // 1-D
					c.in = []int{1, gr.c, g.in}
					c.w = append(w, g.k)
					c.stride, c.padding, c.dilation = l(int64(g.s)), l(int64(g.p)), l(int64(g.d))
				} else { // 2-D: the grid along W, a plain 3-wide window over 4 rows along H
					c.in = []int{1 + i%2, gr.c, 4, g.in}
					c.w = append(w, 3, g.k)
					c.stride, c.padding, c.dilation = l(1, int64(g.s)), l(1, int64(g.p)), l(1, int64(g.d))
					c.outPadding = l(0, int64(op))
					if i%5 == 0 { // the grid along H too
						c.in[2], c.w[2] = g.in, g.k
						c.stride[0], c.padding[0], c.dilation[0], c.outPadding[0] = c.stride[1], c.padding[1], c.dilation[1], c.outPadding[1]
					}
					if i%7 == 0 { // 3-D: the grid along D too
						c.in = []int{c.in[0], c.in[1], g.in, c.in[2], c.in[3]}
						c.w = []int{c.w[0], c.w[1], g.k, c.w[2], c.w[3]}
						c.stride = l(int64(g.s), c.stride[0], c.stride[1])
						c.padding = l(int64(g.p), c.padding[0], c.padding[1])
						c.dilation = l(int64(g.d), c.dilation[0], c.dilation[1])
						c.outPadding = l(int64(op), c.outPadding[0], c.outPadding[1])
					}
				}
				c.name = fmt.Sprintf("%d transposed=%v in=%v w=%v s=%v p=%v d=%v op=%v groups=%d", i, transposed, c.in, c.w, c.stride, c.padding, c.dilation, c.outPadding, c.groups)
				cases = append(cases, c)
			}
		}
	}
	r := rand.New(rand.NewSource(20))
	ints := func(n, lim int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(2*lim+1) - lim)
		}
		return v
	}
	for _, c := range cases {
		in, w := ints(linalgNumel(c.in), 3), ints(linalgNumel(c.w), 2)
		oc := c.w[0]
		if c.transposed {
			oc = c.groups * c.w[1]
		}
		var bias []float64
		var biasArg any = none
		if c.bias {
			bias = ints(oc, 5)
			biasArg = linalgTensor(t, executor.Float32, bias, oc)
		}
		sizes, want := convolutionReference(c, in, w, bias)
		out := empty(t, executor.Float32, sizes...)
		err := call(t, "aten::convolution.out", linalgTensor(t, executor.Float32, in, c.in...), linalgTensor(t, executor.Float32, w, c.w...), biasArg,
			c.stride, c.padding, c.dilation, c.transposed, c.outPadding, c.groups, out, out)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !t.Run(c.name, func(t *testing.T) { wantValuesAny(t, out, sizes, want) }) {
			break
		}
	}
	t.Logf("%d cases", len(cases))
}
