package main

import (
	"os"
	"path/filepath"
)

// output is a file a command is about to write, and how the command line named it ("-o
// out.pte", "--output-dir out (output 0)") for the message when it is refused.
type output struct {
	label, path string
}

// checkOutputs refuses, as a usage error and before anything is written, an output that is
// one of the inputs (etgo lower m.pt2 -o m.pt2 would replace the model with the program made
// from it; etgo rewrite a.pte a.pte would truncate the file it is reading through a memory map)
// or that two outputs name the same file. Files are compared with os.SameFile, so another
// spelling of a path, a symlink or a hard link to an input is caught as well; an output that does
// not exist yet cannot be an input.
func checkOutputs(inputs []string, outputs ...output) error {
	type seen struct {
		output
		abs  string
		info os.FileInfo
	}
	var done []seen
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		abs, err := filepath.Abs(o.path)
		if err != nil {
			abs = filepath.Clean(o.path)
		}
		info, _ := os.Stat(o.path)
		if info != nil {
			for _, in := range inputs {
				if ii, err := os.Stat(in); err == nil && os.SameFile(info, ii) {
					return usageErrorf("refusing to overwrite the input %s: %s names the same file", in, o.label)
				}
			}
		}
		for _, d := range done {
			if d.abs == abs || (info != nil && d.info != nil && os.SameFile(info, d.info)) {
				return usageErrorf("%s and %s name the same file", d.label, o.label)
			}
		}
		done = append(done, seen{o, abs, info})
	}
	return nil
}
