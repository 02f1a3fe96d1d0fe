// Command unboxgen writes a kernel library's argument unboxing (unbox_gen.go, and the table
// its test reads, unbox_gen_test.go) from the schemas in internal/opschema; `go generate
// ./kernels/portable` (or ./kernels/optimized, ./kernels/quantized) runs it. Kernel names the source spells out that have no schema are
// listed on stderr: regenerate internal/opschema (tools/reference/generate_opschema.py) for a
// new kernel, then run this again.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/etgo/etgo/internal/unboxgen"
)

func main() {
	dir := flag.String("dir", ".", "the kernel package's directory")
	out := flag.String("o", "unbox_gen.go", "the unboxers, in -dir")
	test := flag.String("test", "unbox_gen_test.go", "the test table, in -dir")
	pkg := flag.String("pkg", "portable", "the generated files' package")
	flag.Parse()
	log.SetFlags(0)
	names, unknown, err := unboxgen.KernelNames(*dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range unknown {
		fmt.Fprintf(os.Stderr, "unboxgen: %s has no schema in internal/opschema; it is not unboxed\n", u)
	}
	src, err := unboxgen.Generate(*pkg, names)
	if err != nil {
		log.Fatal(err)
	}
	tsrc, err := unboxgen.GenerateTest(*pkg, names)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*dir, *out), src, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*dir, *test), tsrc, 0o644); err != nil {
		log.Fatal(err)
	}
}
