package passes

//go:generate sh -c "python3 ../tools/reference/generate_schemas.py && gofmt -w schemas_gen.go"

// Schema is an operator's functional signature, as torch declares it.
type Schema struct {
	Args    []SchemaArg
	Returns int
}

// SchemaArg is one argument: its name, its type as torch's Python annotation writes it
// ("Tensor", "Optional[Tensor]", "List[int]", "number", "Optional[ScalarType]", …), its default ("" when it has none; "None" for an
// optional one) and whether it is keyword-only.
type SchemaArg struct {
	Name, Type, Default string
	KwargOnly           bool
}

// SchemaOf returns target's schema, if etgo knows it.
func SchemaOf(target string) (Schema, bool) {
	s, ok := schemas[target]
	return s, ok
}

// Arg returns the named argument of the schema.
func (s Schema) Arg(name string) (SchemaArg, bool) {
	for _, a := range s.Args {
		if a.Name == name {
			return a, true
		}
	}
	return SchemaArg{}, false
}
