package vkrt

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/etgo/etgo/backends/vulkan/vkgraph"
	"github.com/etgo/etgo/executor"
)

// BackendID is the id the official Vulkan delegates carry.
const BackendID = vkgraph.BackendID

var (
	// ErrNoDevice is wrapped when there is no Vulkan loader, driver or usable device.
	ErrNoDevice = errors.New("no Vulkan device")
	// ErrUnsupported is wrapped when a blob uses an operator, datatype or form this backend
	// does not run.
	ErrUnsupported = errors.New("unsupported by etgo's Vulkan backend")
	// ErrInvalidBlob is vkgraph's: a blob malformed or inconsistent.
	ErrInvalidBlob = vkgraph.ErrInvalidBlob
)

// Error is a Vulkan call that failed, with its VkResult.
type Error struct {
	Call   string
	Result int32
}

func (e *Error) Error() string {
	name := map[int32]string{-1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
		-3: "VK_ERROR_INITIALIZATION_FAILED", -4: "VK_ERROR_DEVICE_LOST", -9: "VK_ERROR_INCOMPATIBLE_DRIVER"}[e.Result]
	if name == "" {
		name = fmt.Sprintf("VkResult %d", e.Result)
	}
	return fmt.Sprintf("vulkan: %s: %s", e.Call, name)
}

func errUnsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// Backend executes VK00 delegate blobs with Vulkan compute on the machine's first usable
// device. It holds no state: the device is the process's, each Init makes its own handle.
type Backend struct{}

// Register adds the backend to a registry under BackendID.
func Register(r *executor.Registry) error { return r.RegisterBackend(BackendID, Backend{}) }

// IsAvailable reports whether a Vulkan device opens (the first call opens it).
func (Backend) IsAvailable() bool { _, err := openDevice(); return err == nil }

// Unavailable says why no Vulkan device opens (nil when one does), wrapping ErrNoDevice: a
// method load refused for it, and `etgo check`, carry the reason (executor.AvailabilityExplainer).
func (Backend) Unavailable() error { _, err := openDevice(); return err }

// Available says why the backend cannot run here (nil when it can), and names the device
// when it can: for `etgo check` and tests.
func Available() (device string, err error) {
	d, err := openDevice()
	if err != nil {
		return "", err
	}
	return d.describe(), nil
}

// maxShapes bounds how many input-shape variants a delegate keeps compiled at once (a dynamic
// program called with ever new sizes must not grow without bound).
const maxShapes = 4

// delegate is one initialised blob.
type delegate struct {
	g      *vkgraph.Graph
	consts [][]byte
	dev    *device
	mu     sync.Mutex // one Execute at a time: the compiled buffers are the handle's
	cache  []*variant // most recently used last
}

// variant is the graph compiled for one set of input shapes.
type variant struct {
	inShapes [][]int
	b        *builder
	c        *compiled
}

// Init parses the blob, refuses operators it does not run (naming all of them), resolves the
// constants (copied: the blob may be a mapped file), and compiles the graph for the shapes of
// the method's calls (or the blob's declared input dims).
func (Backend) Init(ctx *executor.BackendInitContext, processed []byte, _ []executor.CompileSpec) (executor.DelegateHandle, error) {
	var named func(string) ([]byte, error)
	if ctx != nil {
		named = ctx.NamedData
	}
	g, consts, err := load(processed, named)
	if err != nil {
		return nil, err
	}
	dev, err := openDevice()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", BackendID, err)
	}
	d := &delegate{g: g, dev: dev, consts: consts}
	shapes := declaredShapes(g)
	if ctx != nil && len(ctx.Calls) > 0 {
		args := ctx.Calls[0]
		for k := range shapes {
			if k < len(args) && args[k] != nil && args[k].Tag == executor.TagTensor && args[k].Tensor != nil {
				shapes[k] = slices.Clone(args[k].Tensor.Sizes())
			}
		}
	}
	if _, err := d.variant(shapes); err != nil {
		d.free()
		return nil, err
	}
	return d, nil
}

// load is the part of Init that needs no device (and that FuzzPlan drives): parse the blob,
// refuse the operators this backend does not run, and resolve every constant, copied, from
// the blob or from the program's named data.
func load(processed []byte, named func(string) ([]byte, error)) (*vkgraph.Graph, [][]byte, error) {
	g, err := vkgraph.ParseBlob(processed)
	if err != nil {
		return nil, nil, err
	}
	if err := unsupported(g); err != nil {
		return nil, nil, err
	}
	consts := make([][]byte, len(g.Constants))
	for i, c := range g.Constants {
		if c.IsNamed() {
			if named == nil {
				return nil, nil, fmt.Errorf("%w: constant %d is named data %q and the program has none", ErrInvalidBlob, i, c.NamedKey)
			}
			raw, err := named(c.NamedKey)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: constant %d (%q): %w", ErrInvalidBlob, i, c.NamedKey, err)
			}
			consts[i] = slices.Clone(raw)
			continue
		}
		consts[i] = slices.Clone(g.ConstantRegion[c.Offset : c.Offset+c.Length])
	}
	return g, consts, nil
}

// declaredShapes are the blob's input dims, the shapes Init compiles for without calls.
func declaredShapes(g *vkgraph.Graph) [][]int {
	shapes := make([][]int, len(g.InputIDs))
	for k, id := range g.InputIDs {
		shapes[k] = dimsOf(g.Values[id].Tensor.Dims)
	}
	return shapes
}

// variant returns the graph compiled for these input shapes, compiling it when new.
func (d *delegate) variant(shapes [][]int) (*variant, error) {
	for i, v := range d.cache {
		if slices.EqualFunc(v.inShapes, shapes, slices.Equal[[]int]) {
			d.cache = append(slices.Delete(d.cache, i, i+1), v)
			return v, nil
		}
	}
	b, err := build(d.g, d.consts, shapes)
	if err != nil {
		return nil, err
	}
	c, err := d.dev.compile(&b.prog)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", BackendID, d.dev.describe(), err)
	}
	for i := range b.prog.bufs {
		b.prog.bufs[i].init = nil // on the device now
	}
	v := &variant{inShapes: shapes, b: b, c: c}
	if len(d.cache) == maxShapes {
		d.cache[0].c.free()
		d.cache = d.cache[1:]
	}
	d.cache = append(d.cache, v)
	return v, nil
}

func (d *delegate) free() {
	for _, v := range d.cache {
		v.c.free()
	}
	d.cache = nil
}

// Execute copies the inputs into the device buffer, runs the recorded command buffer and
// copies the outputs out, resizing them to the shapes the inputs give.
func (Backend) Execute(ctx *executor.BackendExecutionContext, h executor.DelegateHandle, args []*executor.EValue) error {
	d, ok := h.(*delegate)
	if !ok {
		return fmt.Errorf("%w: not a Vulkan delegate handle", executor.ErrInvalidArgument)
	}
	g := d.g
	if len(args) != len(g.InputIDs)+len(g.OutputIDs) {
		return fmt.Errorf("%w: the delegate takes %d inputs and %d outputs, the call has %d arguments", executor.ErrInvalidArgument, len(g.InputIDs), len(g.OutputIDs), len(args))
	}
	tensorAt := func(k int, id uint32) (*executor.Tensor, error) {
		a := args[k]
		if a == nil || a.Tag != executor.TagTensor || a.Tensor == nil {
			return nil, fmt.Errorf("%w: delegate argument %d is not a tensor", executor.ErrInvalidArgument, k)
		}
		t := a.Tensor
		if d := g.Values[id].Tensor.DType; !stageable(d, t.ScalarType()) {
			return nil, fmt.Errorf("%w: delegate argument %d is %s, the graph takes %s", executor.ErrInvalidArgument, k, executor.DTypeName(t.ScalarType()), executor.DTypeName(graphScalarType(d)))
		}
		if !t.IsContiguous() {
			return nil, fmt.Errorf("%w: delegate argument %d has dim order %v", executor.ErrInvalidArgument, k, t.DimOrder())
		}
		return t, nil
	}
	ins := make([]*executor.Tensor, len(g.InputIDs))
	shapes := make([][]int, len(ins))
	for k, id := range g.InputIDs {
		t, err := tensorAt(k, id)
		if err != nil {
			return err
		}
		ins[k], shapes[k] = t, slices.Clone(t.Sizes())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	v, err := d.variant(shapes)
	if err != nil {
		return err
	}
	regionBytes := func(id uint32) []byte {
		r := v.c.bytesOf(&v.b.prog, v.b.region[id])
		return r[:4*numel(v.b.shape[id])]
	}
	for k, id := range g.InputIDs {
		if err := stageIn(regionBytes(id), ins[k].Bytes(), ins[k].ScalarType(), numel(v.b.shape[id])); err != nil {
			return fmt.Errorf("input %d: %w", k, err)
		}
	}
	if ctx != nil && ctx.Context != nil {
		if err := ctx.Context.Err(); err != nil {
			return err
		}
	}
	if err := v.c.run(); err != nil {
		return fmt.Errorf("%s on %s: %w", BackendID, d.dev.describe(), err)
	}
	for k, id := range g.OutputIDs {
		t, err := tensorAt(len(ins)+k, id)
		if err != nil {
			return err
		}
		if want := v.b.shape[id]; !slices.Equal(t.Sizes(), want) {
			if err := t.Resize(want); err != nil {
				return fmt.Errorf("output %d: %w", k, err)
			}
		}
		if err := stageOut(t.Bytes(), regionBytes(id), t.ScalarType(), numel(v.b.shape[id])); err != nil {
			return fmt.Errorf("output %d: %w", k, err)
		}
	}
	return nil
}

// Destroy releases a handle's device objects.
func (Backend) Destroy(h executor.DelegateHandle) {
	if d, ok := h.(*delegate); ok {
		d.mu.Lock()
		d.free()
		d.mu.Unlock()
	}
}
