package pt2

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

// archiveOf builds a zip with the given entries (stored, like torch's writer).
func archiveOf(t *testing.T, entries map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range entries {
		f, err := w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const minimalModel = `{"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": "relu"}}],
 "nodes": [{"target": "torch.ops.aten.relu.default", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1}],
 "outputs": [{"as_tensor": {"name": "relu"}}], "metadata": {}, "name": "relu"}],
 "tensor_values": {"x": {"dtype": 7, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7},
  "relu": {"dtype": 7, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7}},
 "sym_int_values": {}, "sym_bool_values": {}, "sym_float_values": {}, "custom_obj_values": {}},
 "signature": {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}], "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "relu"}}}}]}},
 "range_constraints": {}, "schema_version": {"major": 8, "minor": 20}, "torch_version": "test"}`

func TestMinimalArchive(t *testing.T) {
	p, err := Parse(archiveOf(t, map[string]string{"m/archive_format": "pt2", "m/byteorder": "little", "m/models/model.json": minimalModel}))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Graph.Nodes) != 1 || p.Graph.Nodes[0].Target != "aten.relu.default" {
		t.Errorf("nodes %v", p.Graph.Nodes)
	}
}

// Complex dtypes and sparse layouts are read (the Edge conversion decides what to do with them).
func TestComplexAndSparseMeta(t *testing.T) {
	model := strings.Replace(strings.Replace(minimalModel, `"dtype": 7`, `"dtype": 10`, 1), `"layout": 7}}`, `"layout": 1}}`, 1)
	p, err := Parse(archiveOf(t, map[string]string{"m/archive_format": "pt2", "m/byteorder": "little", "m/models/model.json": model}))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := p.Graph.Value("x")
	relu, _ := p.Graph.Value("relu")
	if x.Meta.DType != ir.ComplexFloat || x.Meta.Layout != ir.Strided || relu.Meta.Layout != ir.SparseCOO {
		t.Errorf("x %s (%s), relu %s (%s)", x.Meta, x.Meta.Layout, relu.Meta, relu.Meta.Layout)
	}
}

func TestBadArchives(t *testing.T) {
	base := map[string]string{"m/archive_format": "pt2", "m/byteorder": "little", "m/models/model.json": minimalModel}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range base {
			m[a] = b
		}
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a zip", []byte("hello"), "not a zip"},
		{"no archive_format", archiveOf(t, with("m/archive_format", "")), "no archive_format"},
		{"wrong format", archiveOf(t, with("m/archive_format", "pt3")), `"pt3"`},
		{"big endian", archiveOf(t, with("m/byteorder", "big")), "byteorder"},
		{"no model", archiveOf(t, with("m/models/model.json", "")), "no models/"},
		{"bad json", archiveOf(t, with("m/models/model.json", "{")), "model.json"},
		{"use before define", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel, `"arg": {"as_tensor": {"name": "x"}}, "kind"`, `"arg": {"as_tensor": {"name": "y"}}, "kind"`, 1))), `"y" is used before it is defined`},
		{"unknown layout", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel, `"layout": 7`, `"layout": 42`, 1))), "layout 42"},
		{"unknown dtype", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel, `"dtype": 7`, `"dtype": 99`, 1))), "dtype 99"},
		{"negative size", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel, `"as_int": 2}]`, `"as_int": -2}]`, 1))), "negative size"},
		{"missing parameter data", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel,
			`"input_specs": [`, `"input_specs": [{"parameter": {"arg": {"name": "x"}, "parameter_name": "w"}}, `, 1))), `parameter "w" has no data`},
		{"subgraph argument", archiveOf(t, with("m/models/model.json", strings.Replace(minimalModel,
			`"arg": {"as_tensor": {"name": "x"}}, "kind": 1`, `"arg": {"as_graph": {"name": "g"}}, "kind": 1`, 1))), "control flow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.data)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalid mentioning %q", err, tc.want)
			}
		})
	}
}
