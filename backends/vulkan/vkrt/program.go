package vkrt

import (
	"encoding/binary"
	"fmt"
	"math"
)

// program is what a graph becomes before it meets a device: regions of one buffer (tensors,
// constants, parameter blocks) and the dispatches that read and write them, in order.
type program struct {
	bufs  []bufSpec
	steps []step
	// size is the buffer's total length; maxBinding the largest region any binding names.
	size       int
	maxBinding uint64
}

// bufSpec is one region: its offset and length in bytes and, for constants and parameters,
// the bytes it starts with.
type bufSpec struct {
	offset, size int
	init         []byte
}

// step is one dispatch: a shader, the regions bound at bindings 0.. (0 is its parameters) and
// the workgroup counts.
type step struct {
	shader string
	bind   []int
	groups [3]uint32
}

// regionAlign satisfies every device's minStorageBufferOffsetAlignment (at most 256 by the
// Vulkan specification).
const regionAlign = 256

// maxGroups is the workgroup count every device takes in x and y (maxComputeWorkGroupCount's
// required minimum).
const maxGroups = 65535

// localSize is every shader's local_size_x (shaders/common.glsl).
const localSize = 64

// maxProgramBytes bounds one delegate's buffer: a blob's dims are untrusted, and a region
// offset must fit the shaders' 32-bit element indices.
const maxProgramBytes = 1<<31 - 1

func (p *program) alloc(size int, init []byte) (int, error) {
	off := (p.size + regionAlign - 1) / regionAlign * regionAlign
	n := max(size, 4)
	if size < 0 || off+n > maxProgramBytes {
		return 0, fmt.Errorf("%w: the delegate's tensors need more than %d bytes", ErrUnsupported, maxProgramBytes)
	}
	p.bufs = append(p.bufs, bufSpec{offset: off, size: n, init: init})
	p.size = off + n
	p.maxBinding = max(p.maxBinding, uint64(n))
	return len(p.bufs) - 1, nil
}

// dispatch adds a step of n invocations with parameters params.
func (p *program) dispatch(shader string, n int, params []uint32, bufs ...int) error {
	if n <= 0 {
		return nil // nothing to compute (an empty tensor)
	}
	raw := make([]byte, 4*len(params))
	for i, w := range params {
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	pb, err := p.alloc(len(raw), raw)
	if err != nil {
		return err
	}
	groups := (n + localSize - 1) / localSize
	x := min(groups, maxGroups)
	y := (groups + x - 1) / x
	if y > maxGroups {
		return fmt.Errorf("%w: %s over %d elements exceeds one dispatch", ErrUnsupported, shader, n)
	}
	p.steps = append(p.steps, step{shader: shader, bind: append([]int{pb}, bufs...), groups: [3]uint32{uint32(x), uint32(y), 1}})
	return nil
}

func f32bits(v float64) uint32 { return math.Float32bits(float32(v)) }

// bytesOf is region r of a compiled program's mapped buffer.
func (c *compiled) bytesOf(p *program, r int) []byte {
	s := p.bufs[r]
	return c.mapped[s.offset : s.offset+s.size]
}
