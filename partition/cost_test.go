package partition

import (
	"testing"

	"github.com/etgo/etgo/internal/irtext"
)

func TestFLOPs(t *testing.T) {
	g := irtext.MustParse(`
sym s0
in x f32[1,3,8,8]
in y f32[s0,16]
param w f32[4,3,3,3]
param dw f32[3,1,3,3]
param lw f32[16,32]
param b f32[32]
c = aten.convolution.default(input=x, weight=w, bias=none, stride=[1,1], padding=[1,1], dilation=[1,1], transposed=false, output_padding=[0,0], groups=1) -> f32[1,4,8,8]
d = aten.convolution.default(input=x, weight=dw, bias=none, stride=[1,1], padding=[1,1], dilation=[1,1], transposed=false, output_padding=[0,0], groups=3) -> f32[1,3,8,8]
m = aten.addmm.default(self=b, mat1=y, mat2=lw) -> f32[s0,32]
p, i = aten.max_pool2d_with_indices.default(self=c, kernel_size=[2,2], stride=[2,2]) -> f32[1,4,4,4], i64[1,4,4,4]
r = aten.relu.default(self=c) -> f32[1,4,8,8]
v = aten.view_copy.default(self=r, size=[4,64]) -> f32[4,64]
s = aten.mean.dim(self=r, dim=[-1,-2], keepdim=true) -> f32[1,4,1,1]
k = aten._softmax.default(self=v, dim=1, half_to_float=false) -> f32[4,64]
n = _operator.mul(a=$s0, b=2) -> i64[]
out p
out m
out d
out s
out k`)
	want := map[string]int64{
		"c": 2 * 256 * 27, // 256 outputs × 27 MACs
		"d": 2 * 192 * 9,  // depthwise: 9 MACs per output
		"m": 2 * 4 * 32 * 16,
		"p": (64 + 64) * 4, // values and indices, 4-tap window each
		"r": 256,
		"v": 0,
		"s": 256, // reads every input element
		"k": 5 * 256,
		"n": 0,
	}
	for _, n := range g.Nodes {
		if got := FLOPs(n); got != want[n.Name] {
			t.Errorf("%s (%s): %d FLOPs, want %d", n.Name, n.Target, got, want[n.Name])
		}
	}
}
