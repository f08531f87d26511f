package driver

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/vetproto"
)

// help prints the usage (guardvet help) or the manual of each rule named
// (guardvet help RULE...) to stdout. config is not a rule: guardvet help
// config lists the options it holds, the -config.* flags.
func help(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		opts, _, _ := parseFlags(nil, analyzers, io.Discard) // no arguments: nothing to fail on; only the flag set is wanted
		usage(opts.flags, analyzers, stdout)
		return output.ExitClean
	}
	byName := map[string]*analysis.Analyzer{}
	var names []string
	for _, a := range analyzers {
		byName[a.Name] = a
		if a != config.Analyzer {
			names = append(names, a.Name)
		}
	}
	for _, name := range args {
		if byName[name] == nil {
			fmt.Fprintf(stderr, "guardvet help: no rule %q; the rules are %s\n", name, strings.Join(names, ", "))
			return output.ExitError
		}
	}
	for i, name := range args {
		if i > 0 {
			fmt.Fprint(stdout, "\n")
		}
		a := byName[name]
		if a == config.Analyzer {
			fmt.Fprint(stdout, "config is not a rule: it holds the options the rules share, set with these flags\n(docs/output.md lists every flag):\n")
		} else {
			fmt.Fprintf(stdout, "%s\n\nManual: %s\n", strings.TrimSpace(a.Doc), a.URL)
		}
		ruleFlags(stdout, a)
	}
	return output.ExitClean
}

// ruleFlags lists an analyzer's own flags, as -NAME.FLAG.
func ruleFlags(w io.Writer, a *analysis.Analyzer) {
	first := true
	a.Flags.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, "internal") {
			return
		}
		if first {
			fmt.Fprint(w, "\nFlags:\n")
			first = false
		}
		fmt.Fprintf(w, "  -%s.%s\n    \t%s\n", a.Name, f.Name, f.Usage)
	})
}

// dailyFlags are the flags -help lists first, in this order: the ones a
// user reaches for every day (output, adoption, configuration,
// inference); the rest (profiling, the cache, the rules' own options)
// follow under "More flags".
var dailyFlags = []string{
	"json", "sarif", "fix", "diff",
	"baseline", "write-baseline", "new-from-rev", "new-from-merge-base", "config-file",
	"infer", "suggest", "strict",
	"test", "tags", "C", "version",
}

func usage(fs *flag.FlagSet, analyzers []*analysis.Analyzer, w io.Writer) {
	fmt.Fprint(w, `guardvet checks lock discipline: fields guarded by a lock (//guard:by),
fields reachable only through helpers (//guard:only), function lock
contracts (//guard:holds, acquires, releases, excludes) and lock balance.

Usage:
  guardvet [flags] packages...                  standalone, e.g. guardvet ./...
  go vet -vettool=$(command -v guardvet) ./...  as a vet tool (see "Under go vet")
  guardvet help [RULE]                          this text, or one rule's manual
  guardvet cache dir|clean                      the result cache's directory, or empty it
  guardvet races [-tests] packages...           experimental: races across the whole program, no directives needed

Flags used every day:
`)
	daily := map[string]bool{}
	for _, name := range dailyFlags {
		daily[name] = true
	}
	printFlags(w, fs, dailyFlags)
	fmt.Fprint(w, `
Rules. With no rule named, every rule not marked off runs. Naming rules
runs only those, as go vet does: -lockorder alone runs lockorder and no
other rule. -NAME=false turns one rule off and keeps the others.
`)
	rule := map[string]bool{}
	for _, a := range analyzers {
		rule[a.Name] = true
		if a != config.Analyzer {
			fmt.Fprintf(w, "  -%-14s %s\n", a.Name, output.FirstLine(a.Doc))
		}
	}
	fmt.Fprint(w, "\nMore flags (-RULE.FLAG are a rule's options; guardvet help RULE):\n")
	// The internal flags, which the driver sets itself (-config.readers,
	// -config.roots), are left out; docs/output.md documents them.
	var rest []string
	fs.VisitAll(func(f *flag.Flag) {
		if !daily[f.Name] && !rule[f.Name] && !strings.HasPrefix(f.Usage, "internal") {
			rest = append(rest, f.Name)
		}
	})
	printFlags(w, fs, rest)
	fmt.Fprint(w, usageNotes)
}

// printFlags prints the flags of fs named, in that order, as
// flag.PrintDefaults prints them.
func printFlags(w io.Writer, fs *flag.FlagSet, names []string) {
	shown := flag.NewFlagSet("guardvet", flag.ContinueOnError)
	for _, name := range names {
		if f := fs.Lookup(name); f != nil {
			shown.Var(f.Value, f.Name, f.Usage)
		}
	}
	var buf strings.Builder
	shown.SetOutput(&buf)
	shown.PrintDefaults() // sorts by name: put them back in the order given
	blocks := map[string]string{}
	for _, block := range splitFlagBlocks(buf.String()) {
		name := strings.TrimPrefix(strings.Fields(block)[0], "-")
		blocks[name] = block
	}
	for _, name := range names {
		fmt.Fprint(w, blocks[name])
	}
}

// splitFlagBlocks splits flag.PrintDefaults' output into one block per
// flag: its "  -NAME" line and the usage lines under it.
func splitFlagBlocks(text string) []string {
	var blocks []string
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "  -") || len(blocks) == 0 {
			blocks = append(blocks, line)
		} else {
			blocks[len(blocks)-1] += line
		}
	}
	return blocks
}

// usageNotes end -help: inference, adoption, the cache, go vet and the
// exit codes.
const usageNotes = `
Guard inference: -infer turns it on (and -suggest, and naming its rule,
-guardinfer); -config.infer.score, -config.infer.ratio, -config.infer.locked
and -config.infer.prose refine it.

The shared rule is off by default: -shared runs it alone, -config.shared
adds it to the other rules.

Adopting guardvet on existing code: -baseline FILE -write-baseline records
today's findings, -baseline FILE then reports only new ones (and lists
the entries fixed since), -new-from-rev REV only those on lines changed
since the git revision REV (-new-from-merge-base REF: since the current
branch left REF). .guardvet.yaml, found from the working
directory up to the repository root, holds settings and per-directory
overrides; flags override it (docs/adoption.md).

Result cache: a run replays the findings of packages that have not
changed since a run with the same flags. It lives in $GUARDVETCACHE, else
guardvet under the user's cache directory; -cache DIR or
GUARDVETCACHE=DIR moves it, off turns it off. GUARDVET_PROGRESS=off|on
hides or forces the progress line shown on a terminal.

` + vetproto.FlagsHelp + `
Exit codes:
  0  no findings
  1  findings (in every output format)
  2  bad usage, or packages that fail to load or type-check (errors printed)
Under go vet, go vet's own codes apply (1 for findings).

Manual: https://github.com/guardvet/guardvet#readme
`
