//go:build linux && (amd64 || arm64)

package vkrt

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The Vulkan 1.0 subset this backend calls, reached through the system loader (libvulkan.so.1)
// with purego: no cgo, so CGO_ENABLED=0 builds link it. The structs below are the C layouts of
// the Vulkan headers on 64-bit targets (Go's natural alignment equals C's there; handles are
// 64-bit); pointer fields are unsafe.Pointer so the Go memory they point to stays reachable
// while the call runs (sys keeps them reachable until the call returns).

const (
	vkSuccess = 0
	vkTimeout = 2

	vkErrorIncompatibleDriver = -9

	stApplicationInfo          = 0
	stInstanceCreateInfo       = 1
	stDeviceQueueCreateInfo    = 2
	stDeviceCreateInfo         = 3
	stSubmitInfo               = 4
	stMemoryAllocateInfo       = 5
	stFenceCreateInfo          = 8
	stBufferCreateInfo         = 12
	stShaderModuleCreateInfo   = 16
	stPipelineShaderStage      = 18
	stComputePipelineCreate    = 29
	stPipelineLayoutCreateInfo = 30
	stDescSetLayoutCreateInfo  = 32
	stDescPoolCreateInfo       = 33
	stDescSetAllocateInfo      = 34
	stWriteDescriptorSet       = 35
	stCommandPoolCreateInfo    = 39
	stCommandBufferAllocate    = 40
	stCommandBufferBegin       = 42
	stMemoryBarrier            = 46

	queueComputeBit       = 0x2
	bufferUsageStorage    = 0x20
	memHostVisible        = 0x2
	memHostCoherent       = 0x4
	descStorageBuffer     = 7
	shaderStageCompute    = 0x20
	bindPointCompute      = 1
	stageComputeShader    = 0x800
	stageHost             = 0x4000
	accessShaderRead      = 0x20
	accessShaderWrite     = 0x40
	accessHostRead        = 0x2000
	accessHostWrite       = 0x4000
	cmdPoolResetBuffer    = 0x2
	apiVersion10          = 1 << 22
	physicalDeviceTypeCPU = 4
)

type applicationInfo struct {
	sType         uint32
	pNext         unsafe.Pointer
	appName       *byte
	appVersion    uint32
	engineName    *byte
	engineVersion uint32
	apiVersion    uint32
}

type instanceCreateInfo struct {
	sType          uint32
	pNext          unsafe.Pointer
	flags          uint32
	appInfo        *applicationInfo
	layerCount     uint32
	layers         unsafe.Pointer
	extensionCount uint32
	extensions     unsafe.Pointer
}

type queueFamilyProperties struct {
	flags, count, timestampBits uint32
	granularity                 [3]uint32
}

type memoryProperties struct {
	typeCount uint32
	types     [32]struct{ flags, heap uint32 }
	heapCount uint32
	heaps     [16]struct {
		size  uint64
		flags uint32
	}
}

type deviceQueueCreateInfo struct {
	sType      uint32
	pNext      unsafe.Pointer
	flags      uint32
	family     uint32
	count      uint32
	priorities *float32
}

type deviceCreateInfo struct {
	sType          uint32
	pNext          unsafe.Pointer
	flags          uint32
	queueInfoCount uint32
	queueInfos     *deviceQueueCreateInfo
	layerCount     uint32
	layers         unsafe.Pointer
	extensionCount uint32
	extensions     unsafe.Pointer
	features       unsafe.Pointer
}

type bufferCreateInfo struct {
	sType       uint32
	pNext       unsafe.Pointer
	flags       uint32
	size        uint64
	usage       uint32
	sharing     uint32
	familyCount uint32
	families    unsafe.Pointer
}

type memoryRequirements struct {
	size, alignment uint64
	typeBits        uint32
}

type memoryAllocateInfo struct {
	sType     uint32
	pNext     unsafe.Pointer
	size      uint64
	typeIndex uint32
}

type shaderModuleCreateInfo struct {
	sType    uint32
	pNext    unsafe.Pointer
	flags    uint32
	codeSize uintptr
	code     *uint32
}

type descriptorSetLayoutBinding struct {
	binding, descType, count, stages uint32
	samplers                         unsafe.Pointer
}

type descriptorSetLayoutCreateInfo struct {
	sType    uint32
	pNext    unsafe.Pointer
	flags    uint32
	count    uint32
	bindings *descriptorSetLayoutBinding
}

type pipelineLayoutCreateInfo struct {
	sType      uint32
	pNext      unsafe.Pointer
	flags      uint32
	setCount   uint32
	sets       *uint64
	pushCount  uint32
	pushRanges unsafe.Pointer
}

type pipelineShaderStageCreateInfo struct {
	sType          uint32
	pNext          unsafe.Pointer
	flags          uint32
	stage          uint32
	module         uint64
	name           *byte
	specialization unsafe.Pointer
}

type computePipelineCreateInfo struct {
	sType     uint32
	pNext     unsafe.Pointer
	flags     uint32
	stage     pipelineShaderStageCreateInfo
	layout    uint64
	base      uint64
	baseIndex int32
}

type descriptorPoolSize struct{ descType, count uint32 }

type descriptorPoolCreateInfo struct {
	sType     uint32
	pNext     unsafe.Pointer
	flags     uint32
	maxSets   uint32
	sizeCount uint32
	sizes     *descriptorPoolSize
}

type descriptorSetAllocateInfo struct {
	sType   uint32
	pNext   unsafe.Pointer
	pool    uint64
	count   uint32
	layouts *uint64
}

type descriptorBufferInfo struct{ buffer, offset, rng uint64 }

type writeDescriptorSet struct {
	sType      uint32
	pNext      unsafe.Pointer
	set        uint64
	binding    uint32
	arrayElem  uint32
	count      uint32
	descType   uint32
	imageInfo  unsafe.Pointer
	bufferInfo *descriptorBufferInfo
	texelView  unsafe.Pointer
}

type commandPoolCreateInfo struct {
	sType  uint32
	pNext  unsafe.Pointer
	flags  uint32
	family uint32
}

type commandBufferAllocateInfo struct {
	sType uint32
	pNext unsafe.Pointer
	pool  uint64
	level uint32
	count uint32
}

type commandBufferBeginInfo struct {
	sType       uint32
	pNext       unsafe.Pointer
	flags       uint32
	inheritance unsafe.Pointer
}

type memoryBarrier struct {
	sType    uint32
	pNext    unsafe.Pointer
	src, dst uint32
}

type fenceCreateInfo struct {
	sType uint32
	pNext unsafe.Pointer
	flags uint32
}

type submitInfo struct {
	sType          uint32
	pNext          unsafe.Pointer
	waitCount      uint32
	waitSemaphores unsafe.Pointer
	waitStages     unsafe.Pointer
	cmdCount       uint32
	cmds           *uintptr
	signalCount    uint32
	signals        unsafe.Pointer
}

// vkFuncs are the entry points, resolved once from the loader.
type vkFuncs struct {
	createInstance, destroyInstance, enumeratePhysicalDevices, getPhysicalDeviceProperties,
	getQueueFamilyProperties, getMemoryProperties, createDevice, destroyDevice, getDeviceQueue,
	createBuffer, destroyBuffer, getBufferMemoryRequirements, allocateMemory, freeMemory,
	bindBufferMemory, mapMemory, unmapMemory, createShaderModule, destroyShaderModule,
	createDescriptorSetLayout, destroyDescriptorSetLayout, createPipelineLayout,
	destroyPipelineLayout, createComputePipelines, destroyPipeline, createDescriptorPool,
	destroyDescriptorPool, allocateDescriptorSets, updateDescriptorSets, createCommandPool,
	destroyCommandPool, allocateCommandBuffers, freeCommandBuffers, beginCommandBuffer,
	endCommandBuffer, cmdBindPipeline, cmdBindDescriptorSets, cmdDispatch, cmdPipelineBarrier,
	createFence, destroyFence, waitForFences, resetFences, queueSubmit uintptr
}

func (f *vkFuncs) load(lib uintptr) error {
	for _, e := range []struct {
		p    *uintptr
		name string
	}{
		{&f.createInstance, "vkCreateInstance"}, {&f.destroyInstance, "vkDestroyInstance"},
		{&f.enumeratePhysicalDevices, "vkEnumeratePhysicalDevices"},
		{&f.getPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties"},
		{&f.getQueueFamilyProperties, "vkGetPhysicalDeviceQueueFamilyProperties"},
		{&f.getMemoryProperties, "vkGetPhysicalDeviceMemoryProperties"},
		{&f.createDevice, "vkCreateDevice"}, {&f.destroyDevice, "vkDestroyDevice"},
		{&f.getDeviceQueue, "vkGetDeviceQueue"}, {&f.createBuffer, "vkCreateBuffer"},
		{&f.destroyBuffer, "vkDestroyBuffer"}, {&f.getBufferMemoryRequirements, "vkGetBufferMemoryRequirements"},
		{&f.allocateMemory, "vkAllocateMemory"}, {&f.freeMemory, "vkFreeMemory"},
		{&f.bindBufferMemory, "vkBindBufferMemory"}, {&f.mapMemory, "vkMapMemory"},
		{&f.unmapMemory, "vkUnmapMemory"}, {&f.createShaderModule, "vkCreateShaderModule"},
		{&f.destroyShaderModule, "vkDestroyShaderModule"},
		{&f.createDescriptorSetLayout, "vkCreateDescriptorSetLayout"},
		{&f.destroyDescriptorSetLayout, "vkDestroyDescriptorSetLayout"},
		{&f.createPipelineLayout, "vkCreatePipelineLayout"}, {&f.destroyPipelineLayout, "vkDestroyPipelineLayout"},
		{&f.createComputePipelines, "vkCreateComputePipelines"}, {&f.destroyPipeline, "vkDestroyPipeline"},
		{&f.createDescriptorPool, "vkCreateDescriptorPool"}, {&f.destroyDescriptorPool, "vkDestroyDescriptorPool"},
		{&f.allocateDescriptorSets, "vkAllocateDescriptorSets"}, {&f.updateDescriptorSets, "vkUpdateDescriptorSets"},
		{&f.createCommandPool, "vkCreateCommandPool"}, {&f.destroyCommandPool, "vkDestroyCommandPool"},
		{&f.allocateCommandBuffers, "vkAllocateCommandBuffers"}, {&f.freeCommandBuffers, "vkFreeCommandBuffers"},
		{&f.beginCommandBuffer, "vkBeginCommandBuffer"}, {&f.endCommandBuffer, "vkEndCommandBuffer"},
		{&f.cmdBindPipeline, "vkCmdBindPipeline"}, {&f.cmdBindDescriptorSets, "vkCmdBindDescriptorSets"},
		{&f.cmdDispatch, "vkCmdDispatch"}, {&f.cmdPipelineBarrier, "vkCmdPipelineBarrier"},
		{&f.createFence, "vkCreateFence"}, {&f.destroyFence, "vkDestroyFence"},
		{&f.waitForFences, "vkWaitForFences"}, {&f.resetFences, "vkResetFences"},
		{&f.queueSubmit, "vkQueueSubmit"},
	} {
		p, err := purego.Dlsym(lib, e.name)
		if err != nil || p == 0 {
			return fmt.Errorf("%w: the loader has no %s", ErrNoDevice, e.name)
		}
		*e.p = p
	}
	return nil
}

// sys calls a C function. Its arguments are integers, handles or Go pointers; the pointers
// are held in args (so they live on the heap, where Go does not move memory) until the call
// returns, and so is all the memory they point to.
func sys(fn uintptr, args ...any) uintptr {
	var raw [16]uintptr
	for i, a := range args {
		raw[i] = word(a)
	}
	r, _, _ := purego.SyscallN(fn, raw[:len(args)]...)
	runtime.KeepAlive(args)
	return r
}

func word(a any) uintptr {
	switch v := a.(type) {
	case nil:
		return 0
	case uintptr:
		return v
	case uint64:
		return uintptr(v)
	case uint32:
		return uintptr(v)
	case int:
		return uintptr(v)
	}
	rv := reflect.ValueOf(a)
	if k := rv.Kind(); k == reflect.Pointer || k == reflect.UnsafePointer {
		return rv.Pointer()
	}
	panic(fmt.Sprintf("vkrt: a C argument of type %T", a)) // only this file's calls reach here
}

// call runs a Vulkan function returning VkResult and names it in the error.
func call(name string, fn uintptr, args ...any) error {
	if res := int32(sys(fn, args...)); res != vkSuccess {
		return &Error{Call: name, Result: res}
	}
	return nil
}

func cstr(s string) *byte { b := append([]byte(s), 0); return &b[0] }

// device is the process's one Vulkan device: opened on first use, kept until exit (the
// loader and driver are process-wide; reopening per program would cost the driver's start-up
// every time). Queue submissions are serialised by mu, as Vulkan requires of a queue.
type device struct {
	f        vkFuncs
	instance uintptr
	physical uintptr
	dev      uintptr
	queue    uintptr
	family   uint32
	memType  uint32
	name     string
	cpu      bool
	maxRange uint32
	mu       sync.Mutex
}

var (
	devOnce sync.Once
	theDev  *device
	devErr  error
)

// loaderNames are the sonames tried in order: the versioned name the loader package installs,
// then the development symlink.
var loaderNames = []string{"libvulkan.so.1", "libvulkan.so"}

func openDevice() (*device, error) {
	devOnce.Do(func() { theDev, devErr = newDevice() })
	return theDev, devErr
}

func newDevice() (*device, error) {
	var lib uintptr
	var errs []error
	for _, n := range loaderNames {
		h, err := purego.Dlopen(n, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			lib = h
			break
		}
		errs = append(errs, err)
	}
	if lib == 0 {
		return nil, fmt.Errorf("%w: no Vulkan loader (%v): install libvulkan1 and a driver (Mesa's lavapipe: mesa-vulkan-drivers)", ErrNoDevice, errors.Join(errs...))
	}
	d := &device{}
	if err := d.f.load(lib); err != nil {
		return nil, err
	}
	app := &applicationInfo{sType: stApplicationInfo, appName: cstr("etgo"), engineName: cstr("etgo"), apiVersion: apiVersion10}
	ici := &instanceCreateInfo{sType: stInstanceCreateInfo, appInfo: app}
	if err := call("vkCreateInstance", d.f.createInstance, ici, 0, &d.instance); err != nil {
		var ve *Error
		if errors.As(err, &ve) && ve.Result == vkErrorIncompatibleDriver {
			// What the loader answers when it finds no driver at all (no ICD manifest).
			return nil, fmt.Errorf("%w: the Vulkan loader found no driver (%w): install one (Mesa's lavapipe: mesa-vulkan-drivers)", ErrNoDevice, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	var n uint32
	if err := call("vkEnumeratePhysicalDevices", d.f.enumeratePhysicalDevices, d.instance, &n, 0); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: the Vulkan loader found no physical device (install a driver: Mesa's lavapipe is mesa-vulkan-drivers)", ErrNoDevice)
	}
	phys := make([]uintptr, n)
	if err := call("vkEnumeratePhysicalDevices", d.f.enumeratePhysicalDevices, d.instance, &n, &phys[0]); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	// The first device with a compute queue and host-visible coherent memory; discrete and
	// integrated GPUs are preferred over CPU devices (lavapipe), which are taken when alone.
	var props [1024]byte
	best := -1
	for i, p := range phys[:n] {
		fam, ok := d.computeFamily(p)
		mt, ok2 := d.hostMemoryType(p)
		if !ok || !ok2 {
			continue
		}
		sys(d.f.getPhysicalDeviceProperties, p, &props[0])
		cpu := *(*uint32)(unsafe.Pointer(&props[16])) == physicalDeviceTypeCPU
		if best >= 0 && (cpu || !d.cpu) {
			continue
		}
		best = i
		d.physical, d.family, d.memType, d.cpu = p, fam, mt, cpu
		name := props[20:276]
		for j, c := range name {
			if c == 0 {
				name = name[:j]
				break
			}
		}
		d.name = string(name)
		d.maxRange = *(*uint32)(unsafe.Pointer(&props[324]))
	}
	if best < 0 {
		return nil, fmt.Errorf("%w: none of the %d Vulkan devices has a compute queue and host-visible coherent memory", ErrNoDevice, n)
	}
	prio := new(float32)
	*prio = 1
	qci := &deviceQueueCreateInfo{sType: stDeviceQueueCreateInfo, family: d.family, count: 1, priorities: prio}
	dci := &deviceCreateInfo{sType: stDeviceCreateInfo, queueInfoCount: 1, queueInfos: qci}
	if err := call("vkCreateDevice", d.f.createDevice, d.physical, dci, 0, &d.dev); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNoDevice, d.name, err)
	}
	sys(d.f.getDeviceQueue, d.dev, uintptr(d.family), 0, &d.queue)
	return d, nil
}

func (d *device) computeFamily(p uintptr) (uint32, bool) {
	var n uint32
	sys(d.f.getQueueFamilyProperties, p, &n, 0)
	if n == 0 {
		return 0, false
	}
	fams := make([]queueFamilyProperties, n)
	sys(d.f.getQueueFamilyProperties, p, &n, &fams[0])
	for i, f := range fams[:n] {
		if f.flags&queueComputeBit != 0 && f.count > 0 {
			return uint32(i), true
		}
	}
	return 0, false
}

func (d *device) hostMemoryType(p uintptr) (uint32, bool) {
	mp := new(memoryProperties)
	sys(d.f.getMemoryProperties, p, mp)
	want := uint32(memHostVisible | memHostCoherent)
	for i := uint32(0); i < mp.typeCount && i < 32; i++ {
		if mp.types[i].flags&want == want {
			return i, true
		}
	}
	return 0, false
}

// describe names the device for errors and `etgo check`.
func (d *device) describe() string {
	if d.cpu {
		return d.name + " (a CPU device)"
	}
	return d.name
}

// compiled is a program on the device: one host-visible buffer holding every tensor and
// parameter block, a pipeline per shader, a descriptor set per step and one command buffer
// recorded at Init that runs every step with a barrier between them.
type compiled struct {
	d        *device
	buffer   uint64
	memory   uint64
	mapped   []byte
	modules  []uint64
	layouts  []uint64
	playouts []uint64
	pipes    []uint64
	pool     uint64
	cmdPool  uint64
	cmd      uintptr
	fence    uint64
}

func (d *device) compile(p *program) (c *compiled, err error) {
	c = &compiled{d: d}
	defer func() {
		if err != nil {
			c.free()
			c = nil
		}
	}()
	size := uint64(p.size)
	if size == 0 {
		size = 16
	}
	if d.maxRange != 0 && p.maxBinding > uint64(d.maxRange) {
		return nil, fmt.Errorf("%w: a tensor of %d bytes exceeds %s's storage buffer range of %d bytes", ErrUnsupported, p.maxBinding, d.name, d.maxRange)
	}
	bci := &bufferCreateInfo{sType: stBufferCreateInfo, size: size, usage: bufferUsageStorage}
	if err := call("vkCreateBuffer", d.f.createBuffer, d.dev, bci, 0, &c.buffer); err != nil {
		return nil, err
	}
	req := new(memoryRequirements)
	sys(d.f.getBufferMemoryRequirements, d.dev, uintptr(c.buffer), req)
	if req.typeBits&(1<<d.memType) == 0 {
		return nil, fmt.Errorf("%w: %s cannot place a storage buffer in host-visible coherent memory", ErrUnsupported, d.name)
	}
	mai := &memoryAllocateInfo{sType: stMemoryAllocateInfo, size: req.size, typeIndex: d.memType}
	if err := call("vkAllocateMemory", d.f.allocateMemory, d.dev, mai, 0, &c.memory); err != nil {
		return nil, fmt.Errorf("%d bytes: %w", req.size, err)
	}
	if err := call("vkBindBufferMemory", d.f.bindBufferMemory, d.dev, uintptr(c.buffer), uintptr(c.memory), 0); err != nil {
		return nil, err
	}
	var base unsafe.Pointer
	if err := call("vkMapMemory", d.f.mapMemory, d.dev, uintptr(c.memory), 0, uintptr(size), 0, &base); err != nil {
		return nil, err
	}
	c.mapped = unsafe.Slice((*byte)(base), size)
	for _, b := range p.bufs {
		if b.init != nil {
			copy(c.mapped[b.offset:b.offset+b.size], b.init)
		}
	}

	// One pipeline per shader the program uses.
	pipeOf := map[string]int{}
	for _, s := range p.steps {
		if _, ok := pipeOf[s.shader]; ok {
			continue
		}
		if err := c.pipeline(s.shader, len(s.bind)); err != nil {
			return nil, err
		}
		pipeOf[s.shader] = len(c.pipes) - 1
	}
	var total uint32
	for _, s := range p.steps {
		total += uint32(len(s.bind))
	}
	if len(p.steps) > 0 {
		ps := &descriptorPoolSize{descType: descStorageBuffer, count: total}
		dpci := &descriptorPoolCreateInfo{sType: stDescPoolCreateInfo, maxSets: uint32(len(p.steps)), sizeCount: 1, sizes: ps}
		if err := call("vkCreateDescriptorPool", d.f.createDescriptorPool, d.dev, dpci, 0, &c.pool); err != nil {
			return nil, err
		}
	}
	sets := make([]uint64, len(p.steps))
	for i, s := range p.steps {
		layout := c.layouts[pipeOf[s.shader]]
		dsai := &descriptorSetAllocateInfo{sType: stDescSetAllocateInfo, pool: c.pool, count: 1, layouts: &layout}
		if err := call("vkAllocateDescriptorSets", d.f.allocateDescriptorSets, d.dev, dsai, &sets[i]); err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", i, s.shader, err)
		}
		infos := make([]descriptorBufferInfo, len(s.bind))
		writes := make([]writeDescriptorSet, len(s.bind))
		for j, b := range s.bind {
			bs := p.bufs[b]
			infos[j] = descriptorBufferInfo{buffer: c.buffer, offset: uint64(bs.offset), rng: uint64(max(bs.size, 4))}
			writes[j] = writeDescriptorSet{sType: stWriteDescriptorSet, set: sets[i], binding: uint32(j), count: 1,
				descType: descStorageBuffer, bufferInfo: &infos[j]}
		}
		sys(d.f.updateDescriptorSets, d.dev, uintptr(len(writes)), &writes[0], 0, 0)
		runtime.KeepAlive(infos)
	}

	cpci := &commandPoolCreateInfo{sType: stCommandPoolCreateInfo, family: d.family}
	if err := call("vkCreateCommandPool", d.f.createCommandPool, d.dev, cpci, 0, &c.cmdPool); err != nil {
		return nil, err
	}
	cbai := &commandBufferAllocateInfo{sType: stCommandBufferAllocate, pool: c.cmdPool, count: 1}
	if err := call("vkAllocateCommandBuffers", d.f.allocateCommandBuffers, d.dev, cbai, &c.cmd); err != nil {
		return nil, err
	}
	cbbi := &commandBufferBeginInfo{sType: stCommandBufferBegin}
	if err := call("vkBeginCommandBuffer", d.f.beginCommandBuffer, c.cmd, cbbi); err != nil {
		return nil, err
	}
	// Host writes (inputs) are made visible by the submission itself; between steps every
	// shader write is made visible to the next step's reads; at the end, to the host.
	between := &memoryBarrier{sType: stMemoryBarrier, src: accessShaderWrite, dst: accessShaderRead | accessShaderWrite}
	for i, s := range p.steps {
		k := pipeOf[s.shader]
		sys(d.f.cmdBindPipeline, c.cmd, bindPointCompute, uintptr(c.pipes[k]))
		sys(d.f.cmdBindDescriptorSets, c.cmd, bindPointCompute, uintptr(c.playouts[k]), 0, 1, &sets[i], 0, 0)
		sys(d.f.cmdDispatch, c.cmd, uintptr(s.groups[0]), uintptr(s.groups[1]), uintptr(s.groups[2]))
		if i+1 < len(p.steps) {
			sys(d.f.cmdPipelineBarrier, c.cmd, stageComputeShader, stageComputeShader, 0, 1, between, 0, 0, 0, 0)
		}
	}
	toHost := &memoryBarrier{sType: stMemoryBarrier, src: accessShaderWrite | accessHostWrite, dst: accessHostRead}
	sys(d.f.cmdPipelineBarrier, c.cmd, stageComputeShader|stageHost, stageHost, 0, 1, toHost, 0, 0, 0, 0)
	if err := call("vkEndCommandBuffer", d.f.endCommandBuffer, c.cmd); err != nil {
		return nil, err
	}
	fci := &fenceCreateInfo{sType: stFenceCreateInfo}
	if err := call("vkCreateFence", d.f.createFence, d.dev, fci, 0, &c.fence); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *compiled) pipeline(name string, nbind int) error {
	d := c.d
	spv, ok := shaderSPIRV(name)
	if !ok {
		return fmt.Errorf("%w: no shader %q compiled into this binary", ErrUnsupported, name)
	}
	if len(spv)%4 != 0 || len(spv) == 0 {
		return fmt.Errorf("shader %s: SPIR-V of %d bytes", name, len(spv))
	}
	words := make([]uint32, len(spv)/4)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(spv)), spv)
	smci := &shaderModuleCreateInfo{sType: stShaderModuleCreateInfo, codeSize: uintptr(len(spv)), code: &words[0]}
	var module uint64
	if err := call("vkCreateShaderModule", d.f.createShaderModule, d.dev, smci, 0, &module); err != nil {
		return fmt.Errorf("shader %s: %w", name, err)
	}
	c.modules = append(c.modules, module)
	binds := make([]descriptorSetLayoutBinding, nbind)
	for i := range binds {
		binds[i] = descriptorSetLayoutBinding{binding: uint32(i), descType: descStorageBuffer, count: 1, stages: shaderStageCompute}
	}
	dslci := &descriptorSetLayoutCreateInfo{sType: stDescSetLayoutCreateInfo, count: uint32(nbind), bindings: &binds[0]}
	var layout uint64
	if err := call("vkCreateDescriptorSetLayout", d.f.createDescriptorSetLayout, d.dev, dslci, 0, &layout); err != nil {
		return fmt.Errorf("shader %s: %w", name, err)
	}
	c.layouts = append(c.layouts, layout)
	plci := &pipelineLayoutCreateInfo{sType: stPipelineLayoutCreateInfo, setCount: 1, sets: &layout}
	var pl uint64
	if err := call("vkCreatePipelineLayout", d.f.createPipelineLayout, d.dev, plci, 0, &pl); err != nil {
		return fmt.Errorf("shader %s: %w", name, err)
	}
	c.playouts = append(c.playouts, pl)
	cpci := &computePipelineCreateInfo{sType: stComputePipelineCreate, layout: pl, baseIndex: -1,
		stage: pipelineShaderStageCreateInfo{sType: stPipelineShaderStage, stage: shaderStageCompute, module: module, name: cstr("main")}}
	var pipe uint64
	if err := call("vkCreateComputePipelines", d.f.createComputePipelines, d.dev, 0, 1, cpci, 0, &pipe); err != nil {
		return fmt.Errorf("shader %s: %w", name, err)
	}
	c.pipes = append(c.pipes, pipe)
	return nil
}

// run submits the recorded command buffer and waits for it. The caller has written the inputs
// into c.mapped and reads the outputs from it afterwards.
func (c *compiled) run() error {
	d := c.d
	si := &submitInfo{sType: stSubmitInfo, cmdCount: 1, cmds: &c.cmd}
	d.mu.Lock()
	err := call("vkQueueSubmit", d.f.queueSubmit, d.queue, 1, si, uintptr(c.fence))
	d.mu.Unlock()
	if err != nil {
		return err
	}
	for {
		r := sys(d.f.waitForFences, d.dev, 1, &c.fence, 1, 1_000_000_000)
		if int32(r) == vkTimeout {
			continue
		}
		if int32(r) != vkSuccess {
			return &Error{Call: "vkWaitForFences", Result: int32(r)}
		}
		break
	}
	return call("vkResetFences", d.f.resetFences, d.dev, 1, &c.fence)
}

func (c *compiled) free() {
	if c == nil {
		return
	}
	d := c.d
	f := &d.f
	if c.fence != 0 {
		sys(f.destroyFence, d.dev, uintptr(c.fence), 0)
	}
	if c.cmdPool != 0 {
		sys(f.destroyCommandPool, d.dev, uintptr(c.cmdPool), 0) // frees its buffers
	}
	if c.pool != 0 {
		sys(f.destroyDescriptorPool, d.dev, uintptr(c.pool), 0)
	}
	for _, p := range c.pipes {
		sys(f.destroyPipeline, d.dev, uintptr(p), 0)
	}
	for _, p := range c.playouts {
		sys(f.destroyPipelineLayout, d.dev, uintptr(p), 0)
	}
	for _, l := range c.layouts {
		sys(f.destroyDescriptorSetLayout, d.dev, uintptr(l), 0)
	}
	for _, m := range c.modules {
		sys(f.destroyShaderModule, d.dev, uintptr(m), 0)
	}
	if c.mapped != nil {
		sys(f.unmapMemory, d.dev, uintptr(c.memory))
		c.mapped = nil
	}
	if c.buffer != 0 {
		sys(f.destroyBuffer, d.dev, uintptr(c.buffer), 0)
	}
	if c.memory != 0 {
		sys(f.freeMemory, d.dev, uintptr(c.memory), 0)
	}
	*c = compiled{d: d}
}
