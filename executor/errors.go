package executor

import "errors"

// Errors are values: each failure wraps one of these sentinels (check with errors.Is) and names
// what failed, in which method and at which instruction.
var (
	// ErrOperatorMissing: a kernel call names an operator this registry has no kernel for (or
	// none for its dtypes). ExecuTorch's OperatorMissing (0x14).
	ErrOperatorMissing = errors.New("operator missing")
	// ErrBackendNotRegistered: a delegate names a backend this registry lacks. ExecuTorch's
	// NotFound (0x20) at load.
	ErrBackendNotRegistered = errors.New("backend not registered")
	// ErrBackendUnavailable: the backend is registered but reports itself unavailable here.
	ErrBackendUnavailable = errors.New("backend not available")
	// ErrDelegateInit: a backend refused its blob at init (incompatible or corrupt).
	ErrDelegateInit = errors.New("delegate init failed")
	// ErrInvalidArgument: bad inputs to Execute, or a kernel given arguments it cannot take.
	ErrInvalidArgument = errors.New("invalid argument")
	// ErrKernelFailed: a kernel or delegate failed while executing.
	ErrKernelFailed = errors.New("kernel failed")
	// ErrMethodNotFound: the program has no method of that name.
	ErrMethodNotFound = errors.New("method not found")
	// ErrMemory: planned memory beyond the limit the caller set.
	ErrMemory = errors.New("memory limit exceeded")
	// ErrNotSupported: the program uses a feature this runtime does not implement.
	ErrNotSupported = errors.New("not supported")
)
