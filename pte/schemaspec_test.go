package pte

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSchemaSpecMatchesFBS parses schema/program.fbs and checks that the verifier's description
// has the same slots, kinds, widths and referenced tables, so the two cannot drift apart.
func TestSchemaSpecMatchesFBS(t *testing.T) {
	raw, err := os.ReadFile("schema/program.fbs")
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile(`//[^\n]*`).ReplaceAllString(string(raw), "")
	sizes := map[string]int{"bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2,
		"int16": 2, "uint16": 2, "int": 4, "uint": 4, "float": 4, "int32": 4, "uint32": 4, "long": 8, "ulong": 8,
		"double": 8, "int64": 8, "uint64": 8}
	for _, m := range regexp.MustCompile(`enum\s+(\w+)\s*:\s*(\w+)`).FindAllStringSubmatch(src, -1) {
		sizes[m[1]] = sizes[m[2]]
	}
	unions := map[string][]string{}
	for _, m := range regexp.MustCompile(`union\s+(\w+)\s*\{([^}]*)\}`).FindAllStringSubmatch(src, -1) {
		for _, member := range strings.Split(m[2], ",") {
			if member = strings.TrimSpace(member); member != "" {
				unions[m[1]] = append(unions[m[1]], member)
			}
		}
	}
	specs := map[string]*tableSpec{}
	var walk func(*tableSpec)
	walk = func(s *tableSpec) {
		if specs[s.name] != nil {
			return
		}
		specs[s.name] = s
		for _, f := range s.fields {
			if f.table != nil {
				walk(f.table)
			}
			if f.union != nil {
				for _, m := range f.union.members {
					walk(m)
				}
			}
		}
	}
	walk(specProgram)

	tables := regexp.MustCompile(`table\s+(\w+)\s*\{([^}]*)\}`).FindAllStringSubmatch(src, -1)
	if len(tables) != len(specs) {
		t.Errorf("program.fbs has %d tables, the verifier describes %d", len(tables), len(specs))
	}
	field := regexp.MustCompile(`^\s*(\w+)\s*:\s*(\[?\w+\]?)`)
	for _, m := range tables {
		name, body := m[1], m[2]
		spec := specs[name]
		if spec == nil {
			t.Errorf("table %s is not described", name)
			continue
		}
		var want []fieldSpec
		for _, decl := range strings.Split(body, ";") {
			fm := field.FindStringSubmatch(decl)
			if fm == nil {
				continue
			}
			fname, typ := fm[1], fm[2]
			switch elem := strings.Trim(typ, "[]"); {
			case unions[typ] != nil:
				want = append(want, fieldSpec{name: fname + "_type", kind: fUnionType, size: 1},
					fieldSpec{name: fname, kind: fUnion})
			case typ == "string":
				want = append(want, fieldSpec{name: fname, kind: fString})
			case strings.HasPrefix(typ, "[") && sizes[elem] > 0:
				want = append(want, fieldSpec{name: fname, kind: fVecScalar, size: sizes[elem]})
			case strings.HasPrefix(typ, "[") && elem == "string":
				want = append(want, fieldSpec{name: fname, kind: fVecString})
			case strings.HasPrefix(typ, "["):
				want = append(want, fieldSpec{name: fname, kind: fVecTable, table: &tableSpec{name: elem}})
			case sizes[typ] > 0:
				want = append(want, fieldSpec{name: fname, kind: fScalar, size: sizes[typ]})
			default:
				want = append(want, fieldSpec{name: fname, kind: fTable, table: &tableSpec{name: typ}})
			}
		}
		if len(want) != len(spec.fields) {
			t.Errorf("%s: %d slots in program.fbs, %d described", name, len(want), len(spec.fields))
			continue
		}
		for i, w := range want {
			g := spec.fields[i]
			if g.name != w.name || g.kind != w.kind || g.size != w.size {
				t.Errorf("%s slot %d: described %s kind %d size %d, program.fbs says %s kind %d size %d", name, i, g.name, g.kind, g.size, w.name, w.kind, w.size)
			}
			if w.table != nil && (g.table == nil || g.table.name != w.table.name) {
				t.Errorf("%s.%s: described table %v, program.fbs says %s", name, w.name, g.table, w.table.name)
			}
			if w.kind == fUnion {
				var members []string
				for _, m := range g.union.members {
					members = append(members, m.name)
				}
				u := regexp.MustCompile(w.name + `\s*:\s*(\w+)`).FindStringSubmatch(body)[1]
				if strings.Join(members, ",") != strings.Join(unions[u], ",") {
					t.Errorf("%s.%s: described members %v, program.fbs says %v", name, w.name, members, unions[u])
				}
			}
		}
	}
}
