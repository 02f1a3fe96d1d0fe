// Command etgo is ExecuTorch's delegation system in Go: it reads, lowers, runs and measures
// ExecuTorch programs. Run "etgo help" for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// The exit statuses, the same for every command (README and docs/cli-json.md list them).
const (
	exitOK          = 0
	exitFailure     = 1 // the command ran and failed: an unreadable file, a refused program, a missing kernel
	exitUsage       = 2 // the command line is wrong: nothing is written or run
	exitInterrupted = 130
	// 130 is the shell's convention for a command stopped by SIGINT (128 + 2); SIGTERM is reported
	// the same way, as both cancel the same context.
)

// interruptible is the context long-running commands (run, bench) execute under: cancelled
// by Ctrl-C (SIGINT) or SIGTERM, which the runtime notices between instructions and between
// XNNPACK nodes. A variable so tests can hand in a cancelled one.
var interruptible = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is a command line that is wrong (a flag value out of range, a missing argument,
// an output that would overwrite an input): exit status 2, with the message and a pointer to
// the command's help.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// app is one invocation: its writers, and whether a command's own code was reached. The
// command tree is built anew for every call of run, so flag values never leak from one call to
// the next (the tests run thousands of command lines in one process).
type app struct {
	stdout, stderr io.Writer
	// started is set as a command's RunE begins: an error before that is cobra's (an unknown
	// command or flag, a bad flag value, a wrong argument count), so a usage error.
	started bool
}

// run executes one etgo command line and returns its exit status; main is only this with the
// process's arguments and streams, so tests call it in process.
func run(args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr}
	root := a.rootCommand()
	if len(args) == 0 {
		// No command is a usage error; the help says what the commands are.
		root.SetOut(stderr)
		_ = showHelp(root)
		return exitUsage
	}
	// A nil slice would make cobra read os.Args instead.
	root.SetArgs(append([]string{}, args...))
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	if cmd == nil {
		cmd = root
	}
	name := cmd.CommandPath()
	var usage usageError
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "%s: interrupted\n", name)
		return exitInterrupted
	case errors.As(err, &usage) || !a.started:
		hint := fmt.Sprintf("Run '%s --help' for usage.", name)
		if cmd.Name() == "help" {
			hint = "Run 'etgo help' for the commands."
		}
		fmt.Fprintf(stderr, "%s: %v\n%s\n", name, err, hint)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitFailure
	}
}

const rootLong = `etgo is ExecuTorch's delegation system in Go: it lowers torch.export programs (.pt2)
through ordered partitioners into ExecuTorch programs (.pte), runs any .pte with portable
kernels and an XNNPACK-compatible backend, and measures how well a model was delegated.

Flags go before or after a command's files. Commands that report facts take --json: one JSON
object on stdout, snake_case names, a "schema_version" per command (docs/cli-json.md).

Exit status:
  0    success
  1    failure: an unreadable or malformed file, a program refused at load or while running,
       a missing kernel or backend (etgo check), an output that could not be written
  2    usage: an unknown command or flag, a bad flag value, a missing or extra argument, an
       output that would overwrite an input; nothing is written or run
  130  interrupted (Ctrl-C or SIGTERM during run or bench)`

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "etgo",
		Short: "ExecuTorch's delegation system in Go",
		Long:  rootLong,
		// run prints errors and picks the exit status itself, so one message, once.
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       versionString(),
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetVersionTemplate(`{{.Version}}`)
	setUsageTemplate(root)
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(a.helpCommand())
	root.AddCommand(
		a.demoCommand(),
		a.inspectCommand(),
		a.runCommand(),
		a.checkCommand(),
		a.benchCommand(),
		a.lowerCommand(),
		a.rewriteCommand(),
		a.npyCommand(),
		a.generateCommand(),
		a.tuneCommand(),
		a.versionCommand(),
	)
	// cobra adds "completion" itself (scripts for bash, zsh, fish and powershell), as a command
	// that prints its help and exits 0 for a shell it does not know; made here so that is a
	// usage error like any other unknown argument.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.RunE = func(*cobra.Command, []string) error {
				return usageErrorf("missing SHELL: bash, fish, powershell or zsh")
			}
		}
	}
	return root
}

// showHelp prints a command's help as --help does, with the -h and --version flags cobra only
// adds to a command it executes.
func showHelp(c *cobra.Command) error {
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	return c.Help()
}

// command fills in what every etgo command shares: its RunE marks the invocation started (see
// app.started) before running body.
func (a *app) command(c *cobra.Command, body func(cmd *cobra.Command, args []string) error) *cobra.Command {
	c.RunE = func(cmd *cobra.Command, args []string) error {
		a.started = true
		return body(cmd, args)
	}
	return c
}

// helpCommand replaces cobra's, which prints the root's usage and exits 0 for a topic it does
// not know; here that is a usage error like any unknown command.
func (a *app) helpCommand() *cobra.Command {
	return a.command(&cobra.Command{
		Use:   "help [COMMAND]",
		Short: "the help of etgo or of one command: what it does, its flags, examples",
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			parent, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range parent.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	}, func(c *cobra.Command, args []string) error {
		target, rest, err := c.Root().Find(args)
		if err != nil || len(rest) > 0 {
			return usageErrorf("no help for %q", strings.Join(args, " "))
		}
		return showHelp(target)
	})
}

// singleDash matches pflag's message for a long flag given with one dash, as Go's flag
// package (which etgo used before) accepted: "-iterations" reads as the shorthands i, t, e, ….
var singleDash = regexp.MustCompile(`^unknown shorthand flag: '.' in -([a-z][a-z-]+)$`)

// flagError is every command's flag error: a usage error, which says how to write a long flag
// when that is what went wrong.
func flagError(c *cobra.Command, err error) error {
	if m := singleDash.FindStringSubmatch(err.Error()); m != nil && c.Flags().Lookup(m[1]) != nil {
		return usageErrorf("%v: long flags take two dashes, as in --%s", err, m[1])
	}
	return usageError{err}
}

// fileArgs is the Args check of a command that takes exactly the files named in want (shown in
// the messages, as FILE.pte).
func fileArgs(want ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < len(want):
			return usageErrorf("missing %s", strings.Join(want[len(args):], " "))
		case len(args) > len(want):
			takes := "no arguments"
			if len(want) > 0 {
				takes = strings.Join(want, " ")
			}
			extra := args[len(want)]
			if strings.HasSuffix(extra, ".npy") && cmd.Flags().Lookup("input") != nil {
				takes += "; a .npy input goes with --input"
			}
			return usageErrorf("unexpected argument %q (etgo %s takes %s)", extra, cmd.Name(), takes)
		}
		return nil
	}
}

// atLeast checks an integer flag's lower bound.
func atLeast(flag string, v, lo int) error {
	if v < lo {
		return usageErrorf("--%s must be at least %d, got %d", flag, lo, v)
	}
	return nil
}

// completeFiles completes a command's positional arguments as files with these extensions.
func completeFiles(exts ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return exts, cobra.ShellCompDirectiveFilterFileExt
	}
}
