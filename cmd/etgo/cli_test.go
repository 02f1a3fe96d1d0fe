package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
)

// etgo runs one command line in process.
func etgo(args ...string) (code int, stdout, stderr string) {
	var so, se bytes.Buffer
	code = run(args, &so, &se)
	return code, so.String(), se.String()
}

// TestHelp: every command's help, asked for any of the three ways, exits 0, prints one block on
// stdout, and describes every flag the command has.
func TestHelp(t *testing.T) {
	root := (&app{}).rootCommand()
	for _, c := range root.Commands() {
		name := c.Name()
		t.Run(name, func(t *testing.T) {
			code, want, stderr := etgo("help", name)
			if code != 0 || stderr != "" {
				t.Fatalf("etgo help %s: exit %d, stderr %q", name, code, stderr)
			}
			for _, args := range [][]string{{name, "--help"}, {name, "-h"}} {
				if code, got, stderr := etgo(args...); code != 0 || got != want || stderr != "" {
					t.Errorf("etgo %s: exit %d, stderr %q, and stdout differs from etgo help %s:\n%s", strings.Join(args, " "), code, stderr, name, got)
				}
			}
			if n := strings.Count(want, "Usage:"); n != 1 {
				t.Errorf("etgo help %s prints %d usage blocks, want 1:\n%s", name, n, want)
			}
			if strings.Contains(want, "[=true|false]") {
				t.Errorf("etgo help %s shows pflag's boolean syntax:\n%s", name, want)
			}
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Usage == "" || !strings.Contains(want, "--"+f.Name+" ") {
					t.Errorf("etgo help %s does not describe --%s:\n%s", name, f.Name, want)
				}
			})
		})
	}
	code, want, _ := etgo("help")
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		if c, got, _ := etgo(args...); c != 0 || got != want {
			t.Errorf("etgo %s: exit %d, output differs from etgo help", args[0], c)
		}
	}
	for _, s := range []string{"Exit status:", "130  interrupted", "completion", "version", "lower"} {
		if code != 0 || !strings.Contains(want, s) {
			t.Errorf("etgo help: exit %d, lacks %q", code, s)
		}
	}
	if code, _, stderr := etgo("help", "frobnicate"); code != 2 || !strings.Contains(stderr, `etgo help: no help for "frobnicate"`) {
		t.Errorf("etgo help frobnicate: exit %d, stderr %q", code, stderr)
	}
}

// TestUsageErrors: a wrong command line exits 2 with a message that says what is wrong, before
// any file is opened (the files here do not exist, and a command that tried would exit 1).
func TestUsageErrors(t *testing.T) {
	const pte, pt2, npy = "/nonexistent/m.pte", "/nonexistent/m.pt2", "/nonexistent/x.npy"
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"frobnicate"}, `etgo: unknown command "frobnicate" for "etgo"`},
		{[]string{"bench", pte, "--iterations", "0"}, "etgo bench: --iterations must be at least 1, got 0\nRun 'etgo bench --help' for usage.\n"},
		{[]string{"bench", pte, "--warmup", "-1"}, "--warmup must be at least 0, got -1"},
		{[]string{"bench", pte, "--threads", "-3"}, "--threads must be at least 1, got -3"},
		{[]string{"bench", pte, "--profile", "--top", "-1"}, "--top must be at least 0, got -1"},
		{[]string{"bench", pte, "--top", "3"}, "--top lists --profile's instructions: give --profile too"},
		{[]string{"bench", pte, "--iterations", "many"}, `invalid argument "many" for "--iterations" flag`},
		{[]string{"run", pte, "--threads", "-3"}, "etgo run: --threads must be at least 1, got -3"},
		{[]string{"run", pte, "--nope"}, "etgo run: unknown flag: --nope"},
		{[]string{"run", pte, npy}, `unexpected argument "/nonexistent/x.npy" (etgo run takes FILE.pte; a .npy input goes with --input)`},
		{[]string{"bench", pte, "-iterations", "3"}, "unknown shorthand flag: 'i' in -iterations: long flags take two dashes, as in --iterations"},
		{[]string{"lower", pt2, "-plan"}, "unknown shorthand flag: 'p' in -plan: long flags take two dashes, as in --plan"},
		{[]string{"demo", "--threads", "0"}, "--threads must be at least 1, got 0"},
		{[]string{"npy", npy, "--values", "-2"}, "--values must be at least -1, got -2"},
		{[]string{"inspect", "-x", pte}, "unknown shorthand flag: 'x' in -x"},
		{[]string{"inspect"}, "etgo inspect: missing FILE.pte"},
		{[]string{"check", pte, pte}, `unexpected argument`},
		{[]string{"rewrite", pte}, "etgo rewrite: missing OUT.pte"},
		{[]string{"rewrite", pte, pte, "--constant-alignment", "3"}, "--constant-alignment must be a power of two, got 3"},
		{[]string{"lower", pt2}, "give -o OUT.pte to write the lowered program, or --plan"},
		{[]string{"lower", pt2, "--plan", "--partitioner", "coreml"}, `unknown partitioner "coreml"`},
		{[]string{"lower", pt2, "--plan", "--partitioner", "none", "--partitioner", "xnnpack"}, "--partitioner none means no delegate: give it alone, not with xnnpack"},
		{[]string{"lower", pt2, "--plan", "-o", "x.pte"}, "--plan prints the plan only"},
		{[]string{"version", "now"}, `unexpected argument "now" (etgo version takes no arguments)`},
		{[]string{"completion", "tcsh"}, `etgo completion: unknown command "tcsh" for "etgo completion"`},
		{[]string{"completion"}, "etgo completion: missing SHELL: bash, fish, powershell or zsh"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := etgo(tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.err) {
				t.Errorf("exit %d, want 2; stderr %q lacks %q", code, stderr, tc.err)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// TestFlagsAnywhere: flags go before or after a command's files, with the same result.
func TestFlagsAnywhere(t *testing.T) {
	xnn := testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte")
	input := testutil.Testdata(t, "zoo", "conv_relu", "inputs", "input_0.npy")
	out := filepath.Join(t.TempDir(), "out.pte")
	for _, pair := range [][2][]string{
		{{"inspect", "--json", xnn}, {"inspect", xnn, "--json"}},
		{{"check", "--json", xnn}, {"check", xnn, "--json"}},
		{{"npy", "--values", "2", input}, {"npy", input, "--values=2"}},
		{{"run", "--input", input, "--json", xnn}, {"run", xnn, "--json", "--input", input}},
		{{"rewrite", "--json", xnn, out}, {"rewrite", xnn, out, "--json"}},
		{{"lower", "--plan", "--json", testutil.Testdata(t, "zoo", "mlp", "model.pt2")}, {"lower", testutil.Testdata(t, "zoo", "mlp", "model.pt2"), "--json", "--plan"}},
	} {
		c1, o1, e1 := etgo(pair[0]...)
		c2, o2, e2 := etgo(pair[1]...)
		if c1 != 0 || c2 != 0 || o1 != o2 || o1 == "" {
			t.Errorf("etgo %v: exit %d (%s); etgo %v: exit %d (%s); outputs equal: %v", pair[0], c1, e1, pair[1], c2, e2, o1 == o2)
		}
	}
	// After "--" an argument is a file even when it looks like a flag.
	if code, _, stderr := etgo("inspect", "--", "--json"); code != 1 || !strings.Contains(stderr, "--json") {
		t.Errorf("etgo inspect -- --json: exit %d, stderr %q", code, stderr)
	}
}

// TestVersion: etgo version names the module version, the Go toolchain and the ExecuTorch release,
// which is the one the oracle's fixtures were made with.
func TestVersion(t *testing.T) {
	code, text, _ := etgo("version")
	for _, s := range []string{"etgo ", "built with go1.", "targets ExecuTorch " + executorchVersion, ".pte format ET12"} {
		if code != 0 || !strings.Contains(text, s) {
			t.Errorf("etgo version: exit %d, %q lacks %q", code, text, s)
		}
	}
	if code, got, _ := etgo("--version"); code != 0 || got != text {
		t.Errorf("etgo --version: exit %d, %q, want etgo version's %q", code, got, text)
	}
	code, raw, _ := etgo("version", "--json")
	var v versionResult
	if err := json.Unmarshal([]byte(raw), &v); code != 0 || err != nil {
		t.Fatalf("etgo version --json: exit %d, %v: %s", code, err, raw)
	}
	if v.SchemaVersion != versionSchema || v.ExecuTorch != executorchVersion || !strings.HasPrefix(v.Go, "go") || v.Etgo == "" || v.Module != "github.com/etgo/etgo" {
		t.Errorf("etgo version --json: %+v", v)
	}
	m, err := zoo.LoadManifest(testutil.Testdata(t, "zoo"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Versions["executorch"] != executorchVersion {
		t.Errorf("etgo says it targets ExecuTorch %s; the zoo was made with %s", executorchVersion, m.Versions["executorch"])
	}
}

// TestCompletion: the shell scripts, and the completions they ask etgo for.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{"bash": "__start_etgo", "zsh": "#compdef etgo", "fish": "complete -c etgo", "powershell": "Register-ArgumentCompleter"} {
		if code, out, stderr := etgo("completion", shell); code != 0 || !strings.Contains(out, marker) {
			t.Errorf("etgo completion %s: exit %d, stderr %q, output lacks %q", shell, code, stderr, marker)
		}
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "lower", "m.pt2", "--partitioner", ""}, []string{"xnnpack\n", "none\n", ":4\n"}}, // no file completion
		{[]string{"__complete", "inspect", ""}, []string{"pte\n", "etdp\n", ":8\n"}},                             // files by extension
		{[]string{"__complete", "run", "m.pte", "--input", ""}, []string{"npy\n", ":8\n"}},
		{[]string{"__complete", "help", "l"}, []string{"lower\t"}},
		{[]string{"__complete", "b"}, []string{"bench\t"}},
	} {
		code, out, stderr := etgo(tc.args...)
		for _, w := range tc.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("etgo %v: exit %d (%s), output %q lacks %q", tc.args, code, stderr, out, w)
			}
		}
	}
}
