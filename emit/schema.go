package emit

import (
	"fmt"

	"github.com/etgo/etgo/internal/opschema"
)

// Schema is an out variant's signature as torch declares it (internal/opschema holds the one
// representation etgo uses, generated from torch; these names keep emit's API readable).
type (
	Schema    = opschema.Schema
	SchemaArg = opschema.SchemaArg
	Default   = opschema.Default
)

// OutSchema returns the schema of an out-variant kernel ("aten::add.out").
func OutSchema(kernel string) (*Schema, error) {
	if s, ok := opschema.Out(kernel); ok {
		return s, nil
	}
	return nil, fmt.Errorf("%w: no schema for kernel %s", ErrNoOutVariant, kernel)
}
