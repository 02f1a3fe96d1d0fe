package fbverify

import (
	"fmt"
	"regexp"
	"strings"
)

// CompareFBS checks a schema description against the .fbs text it was written from: the same
// tables, slots, kinds, scalar widths, referenced tables and union members. It returns one line
// per difference; tests of each schema call it so description and .fbs cannot drift apart.
// It understands the subset of the .fbs grammar that ExecuTorch's schemas use.
func CompareFBS(fbs string, root *Table) []string {
	src := regexp.MustCompile(`//[^\n]*`).ReplaceAllString(fbs, "")
	src = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(src, "") // attributes
	sizes := map[string]int{"bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2,
		"int16": 2, "uint16": 2, "int": 4, "uint": 4, "float": 4, "int32": 4, "uint32": 4, "float32": 4,
		"long": 8, "ulong": 8, "double": 8, "int64": 8, "uint64": 8, "float64": 8}
	for _, m := range regexp.MustCompile(`enum\s+(\w+)\s*:\s*(\w+)`).FindAllStringSubmatch(src, -1) {
		sizes[m[1]] = sizes[m[2]]
	}
	unions := map[string][]string{}
	for _, m := range regexp.MustCompile(`union\s+(\w+)\s*\{([^}]*)\}`).FindAllStringSubmatch(src, -1) {
		for _, member := range strings.Split(m[2], ",") {
			member = strings.TrimSpace(member)
			if i := strings.Index(member, ":"); i >= 0 { // alias: table
				member = strings.TrimSpace(member[i+1:])
			}
			if member != "" {
				unions[m[1]] = append(unions[m[1]], member)
			}
		}
	}
	specs := map[string]*Table{}
	var walk func(*Table)
	walk = func(t *Table) {
		if specs[t.Name] != nil {
			return
		}
		specs[t.Name] = t
		for _, f := range t.Fields {
			if f.Table != nil {
				walk(f.Table)
			}
			if f.Union != nil {
				for _, m := range f.Union.Members {
					walk(m)
				}
			}
		}
	}
	walk(root)

	var diffs []string
	tables := regexp.MustCompile(`table\s+(\w+)\s*\{([^}]*)\}`).FindAllStringSubmatch(src, -1)
	if len(tables) != len(specs) {
		diffs = append(diffs, fmt.Sprintf("the .fbs has %d tables, the description reaches %d", len(tables), len(specs)))
	}
	field := regexp.MustCompile(`^\s*(\w+)\s*:\s*(\[?\w+\]?)`)
	for _, m := range tables {
		name, body := m[1], m[2]
		spec := specs[name]
		if spec == nil {
			diffs = append(diffs, "table "+name+" is not described")
			continue
		}
		var want []Field
		for _, decl := range strings.Split(body, ";") {
			fm := field.FindStringSubmatch(decl)
			if fm == nil {
				continue
			}
			fname, typ := fm[1], fm[2]
			switch elem := strings.Trim(typ, "[]"); {
			case unions[typ] != nil:
				want = append(want, Field{Name: fname + "_type", Kind: KUnionType, Size: 1},
					Field{Name: fname, Kind: KUnionValue, Union: &Union{Name: typ}})
			case typ == "string":
				want = append(want, Field{Name: fname, Kind: KString})
			case strings.HasPrefix(typ, "[") && sizes[elem] > 0:
				want = append(want, Field{Name: fname, Kind: KVecScalar, Size: sizes[elem]})
			case strings.HasPrefix(typ, "[") && elem == "string":
				want = append(want, Field{Name: fname, Kind: KVecString})
			case strings.HasPrefix(typ, "["):
				want = append(want, Field{Name: fname, Kind: KVecTable, Table: &Table{Name: elem}})
			case sizes[typ] > 0:
				want = append(want, Field{Name: fname, Kind: KScalar, Size: sizes[typ]})
			default:
				want = append(want, Field{Name: fname, Kind: KTable, Table: &Table{Name: typ}})
			}
		}
		if len(want) != len(spec.Fields) {
			diffs = append(diffs, fmt.Sprintf("%s: %d slots in the .fbs, %d described", name, len(want), len(spec.Fields)))
			continue
		}
		for i, w := range want {
			g := spec.Fields[i]
			if g.Name != w.Name || g.Kind != w.Kind || g.Size != w.Size {
				diffs = append(diffs, fmt.Sprintf("%s slot %d: described %s (kind %d, size %d), the .fbs says %s (kind %d, size %d)", name, i, g.Name, g.Kind, g.Size, w.Name, w.Kind, w.Size))
				continue
			}
			if w.Table != nil && (g.Table == nil || g.Table.Name != w.Table.Name) {
				diffs = append(diffs, fmt.Sprintf("%s.%s: described table %v, the .fbs says %s", name, w.Name, g.Table, w.Table.Name))
			}
			if w.Kind == KUnionValue {
				var members []string
				for _, m := range g.Union.Members {
					members = append(members, m.Name)
				}
				if strings.Join(members, ",") != strings.Join(unions[w.Union.Name], ",") {
					diffs = append(diffs, fmt.Sprintf("%s.%s: described members %v, the .fbs says %v", name, w.Name, members, unions[w.Union.Name]))
				}
			}
		}
	}
	return diffs
}
