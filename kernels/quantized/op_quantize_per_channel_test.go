package quantized_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

// TestQuantizePerChannel: each element takes the parameters of its index along axis (negative
// axes count from the end); scales must be float64 and as many as the channels.
func TestQuantizePerChannel(t *testing.T) {
	in := f32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []struct {
		name    string
		scales  []float64
		zps     []int64
		axis    int
		want    []uint8
		wantErr bool
	}{
		{"axis 0", []float64{1, 0.5}, []int64{0, 10}, 0, []uint8{1, 2, 3, 18, 20, 22}, false},
		{"axis -1", []float64{1, 2, 0.25}, []int64{0, 1, 2}, -1, []uint8{1, 2, 14, 4, 3, 26}, false},
		{"axis out of range", []float64{1, 1}, []int64{0, 0}, 2, nil, true},
		{"too few scales", []float64{1}, []int64{0}, 0, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := must(executor.NewTensor(executor.Uint8, 2, 3))
			err := call("quantized_decomposed::quantize_per_channel.out", 1, in, must(executor.FromSlice(tc.scales, len(tc.scales))),
				must(executor.FromSlice(tc.zps, len(tc.zps))), tc.axis, 0, 255, dt(executor.Uint8), out)
			if tc.wantErr {
				if !errors.Is(err, executor.ErrInvalidArgument) {
					t.Fatalf("err = %v, want ErrInvalidArgument", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := executor.Data[uint8](out); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
