package passes

import "github.com/etgo/etgo/internal/opschema"

// Schema is an operator's functional signature as torch declares it, in the one representation
// etgo uses (internal/opschema, generated from torch): per argument its name, its type as the
// schema spells it ("Tensor", "Tensor?", "int[]", "Scalar", "ScalarType?", …), its default and
// whether it is keyword-only.
type (
	Schema    = opschema.Schema
	SchemaArg = opschema.SchemaArg
)

// SchemaOf returns target's schema, if etgo knows it. The schema is shared: read it, do not
// change it.
func SchemaOf(target string) (*Schema, bool) { return opschema.Functional(target) }
