// Command etgo is ExecuTorch's delegation system in Go: it reads, lowers, runs and measures
// ExecuTorch programs. Run "etgo help" for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand. run returns an error to print; errUsage prints the usage instead.
type command struct {
	summary string
	usage   string
	run     func(args []string, stdout, stderr io.Writer) error
}

var errUsage = errors.New("usage")

// interruptible is the context long-running commands (run, bench) execute under: cancelled
// by Ctrl-C (SIGINT) or SIGTERM, which the runtime notices between instructions and between
// XNNPACK nodes. A variable so tests can hand in a cancelled one.
var interruptible = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// exitInterrupted is the shell's convention for a command stopped by SIGINT (128 + 2).
const exitInterrupted = 130

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprintf(stdout, "usage: etgo %s\n\n%s\n", c.usage, c.summary)
				return 0
			}
		}
		printHelp(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "etgo: unknown command %q\n\n", args[0])
		printHelp(stderr)
		return 2
	}
	err := c.run(args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage), errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stderr, "usage: etgo %s\n", c.usage)
		return 2
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "etgo %s: interrupted\n", args[0])
		return exitInterrupted
	default:
		fmt.Fprintf(stderr, "etgo %s: %v\n", args[0], err)
		return 1
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "etgo: ExecuTorch's delegation system in Go.\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"etgo help COMMAND\" for a command's flags.")
}

// newFlags returns a FlagSet whose errors and help go to stderr and do not exit.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and turns a bad flag into a usage error (exit status 2).
// parseFileAndFlags parses a command line of one file and flags, the file before or after the
// flags ("etgo run m.pte --input x.npy" and "etgo run --input x.npy m.pte").
func parseFileAndFlags(fs *flag.FlagSet, args []string) (string, error) {
	var path string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		path, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if path == "" && fs.NArg() == 1 {
		return fs.Arg(0), nil
	}
	if path == "" || fs.NArg() != 0 {
		return "", errUsage
	}
	return path, nil
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}
