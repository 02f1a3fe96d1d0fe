// Command kernelcoverage writes the portable kernels' operator × dtype table (docs/kernels.md).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/etgo/etgo/kernels/portable"
)

func main() {
	out := flag.String("o", "docs/kernels.md", "output file")
	flag.Parse()
	if err := os.WriteFile(*out, []byte(portable.CoverageMarkdown()), 0o644); err != nil {
		log.Fatal(err)
	}
}
