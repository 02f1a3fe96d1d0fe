package npy

import (
	"fmt"

	"github.com/x448/float16"
)

// DType is the element type of an Array. The zero value is invalid.
type DType uint8

const (
	Invalid DType = iota
	Bool
	Uint8
	Int8
	Int16
	Int32
	Int64
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
)

var dtypeInfo = [...]struct {
	name string
	kind byte // numpy kind character in descr
	size int
}{
	Invalid: {"invalid", 0, 0},
	Bool:    {"bool", 'b', 1},
	Uint8:   {"uint8", 'u', 1},
	Int8:    {"int8", 'i', 1},
	Int16:   {"int16", 'i', 2},
	Int32:   {"int32", 'i', 4},
	Int64:   {"int64", 'i', 8},
	Uint16:  {"uint16", 'u', 2},
	Uint32:  {"uint32", 'u', 4},
	Uint64:  {"uint64", 'u', 8},
	Float16: {"float16", 'f', 2},
	Float32: {"float32", 'f', 4},
	Float64: {"float64", 'f', 8},
}

func (d DType) valid() bool { return d > Invalid && int(d) < len(dtypeInfo) }

// Size is the number of bytes of one element (0 for an invalid DType).
func (d DType) Size() int {
	if !d.valid() {
		return 0
	}
	return dtypeInfo[d].size
}

// String is numpy's name for the type ("float32", "bool", ...).
func (d DType) String() string {
	if !d.valid() {
		return fmt.Sprintf("DType(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// descr is the little-endian numpy type string written into headers, e.g. "<f4" or "|u1".
func (d DType) descr() string {
	info := dtypeInfo[d]
	order := byte('<')
	if info.size == 1 {
		order = '|'
	}
	return fmt.Sprintf("%c%c%d", order, info.kind, info.size)
}

// parseDescr maps a numpy type string to a DType and whether its bytes are big-endian.
func parseDescr(s string) (DType, bool, error) {
	if len(s) != 3 {
		return Invalid, false, fmt.Errorf("dtype %q is not supported (structured, string or object dtypes are not tensors)", s)
	}
	order, kind, size := s[0], s[1], int(s[2]-'0')
	for d := Bool; d <= Float64; d++ {
		info := dtypeInfo[d]
		if info.kind != kind || info.size != size {
			continue
		}
		switch order {
		case '<', '|':
			return d, false, nil
		case '>':
			return d, size > 1, nil
		case '=':
			// Native order of the machine that wrote the file; numpy itself never writes it.
			return Invalid, false, fmt.Errorf("dtype %q has native byte order, which does not say which order the file holds", s)
		}
		return Invalid, false, fmt.Errorf("dtype %q has unknown byte-order character %q", s, order)
	}
	return Invalid, false, fmt.Errorf("dtype %q is not supported", s)
}

// Element lists the Go types that hold one element of each DType. Float16 elements are
// float16.Float16, which keeps them distinct from Uint16.
type Element interface {
	bool | uint8 | int8 | int16 | int32 | int64 | uint16 | uint32 | uint64 |
		float16.Float16 | float32 | float64
}

// DTypeOf returns the DType whose elements have Go type T.
func DTypeOf[T Element]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case uint8:
		return Uint8
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float16.Float16:
		return Float16
	case float32:
		return Float32
	case float64:
		return Float64
	}
	return Invalid
}
