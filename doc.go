// Package etgo runs ExecuTorch programs (.pte files, from the official toolchain or from
// `etgo lower`) in Go, with every built-in kernel and backend:
//
//	m, err := etgo.Load("model.pte")
//	if err != nil { ... }
//	defer m.Close()
//	out, err := m.Forward(ctx, input)
//
// A Module is ExecuTorch's Module: it loads the program, loads each method the first time it is
// run (or eagerly, with LoadMethod, to surface errors early) and runs it. Loading fails, naming
// them, when the program needs a kernel or a backend the module was not given — the "works in
// Python, fails in the app" case — so an application that is built without a backend
// (WithBackends) learns it at load, not at the first call.
//
// Tensors are executor.Tensor values: NewTensor makes one from a Go slice and its sizes, ReadNPY
// from a .npy file; Values reads one back. Outputs are copies the caller owns.
//
// Errors wrap package executor's sentinels, re-exported here (ErrBackendNotRegistered,
// ErrOperatorMissing, ErrInvalidArgument, …): test them with errors.Is. A cancelled or expired
// context stops a call between instructions (and between a delegate's nodes) with ctx.Err()
// wrapped.
//
// A Module is safe for concurrent use: each call runs on a loaded copy of its method that no
// other call is using (a Method holds its own planned memory and delegate state), and copies are
// kept for later calls. Package executor is the layer below, for programs that manage Programs,
// Methods and Registries themselves; this package links no part of the lowering.
package etgo
