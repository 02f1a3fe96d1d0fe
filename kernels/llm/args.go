package llm

import (
	"fmt"

	"github.com/etgo/etgo/executor"
)

// Argument accessors: each error names the argument by its schema position and name, so a bad
// program says what is wrong ("argument 3 (start_pos): want Int, got Tensor").

func argErr(i int, name, format string, a ...any) error {
	return fmt.Errorf("%w: argument %d (%s): %s", executor.ErrInvalidArgument, i, name, fmt.Sprintf(format, a...))
}

func wantArgs(args []*executor.EValue, n int) error {
	if len(args) != n {
		return fmt.Errorf("%w: %d arguments, the schema takes %d (with the return slot)", executor.ErrInvalidArgument, len(args), n)
	}
	for i, a := range args {
		if a == nil {
			return argErr(i, "?", "missing")
		}
	}
	return nil
}

func tensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	v := args[i]
	if v.Tag != executor.TagTensor || v.Tensor == nil {
		return nil, argErr(i, name, "want Tensor, got %s", v.Tag)
	}
	return v.Tensor, nil
}

// optTensorArg returns nil for None.
func optTensorArg(args []*executor.EValue, i int, name string) (*executor.Tensor, error) {
	if args[i].IsNone() {
		return nil, nil
	}
	return tensorArg(args, i, name)
}

func intArg(args []*executor.EValue, i int, name string) (int64, error) {
	v := args[i]
	if v.Tag != executor.TagInt {
		return 0, argErr(i, name, "want Int, got %s", v.Tag)
	}
	return v.Int, nil
}

func boolArg(args []*executor.EValue, i int, name string) (bool, error) {
	v := args[i]
	if v.Tag != executor.TagBool {
		return false, argErr(i, name, "want Bool, got %s", v.Tag)
	}
	return v.Bool, nil
}

func doubleArg(args []*executor.EValue, i int, name string) (float64, error) {
	switch v := args[i]; v.Tag {
	case executor.TagDouble:
		return v.Double, nil
	case executor.TagInt:
		return float64(v.Int), nil
	default:
		return 0, argErr(i, name, "want Double, got %s", v.Tag)
	}
}

// optDoubleArg returns (0, false) for None.
func optDoubleArg(args []*executor.EValue, i int, name string) (float64, bool, error) {
	if args[i].IsNone() {
		return 0, false, nil
	}
	d, err := doubleArg(args, i, name)
	return d, err == nil, err
}

// contiguous4D checks what the official kernels require of every tensor they index by hand.
func contiguous4D(t *executor.Tensor, i int, name string) error {
	if t.Dim() != 4 {
		return argErr(i, name, "must be a 4-D tensor, got sizes %v", t.Sizes())
	}
	if !t.IsContiguous() {
		return argErr(i, name, "must be in contiguous dim order, got %v", t.DimOrder())
	}
	return nil
}
