// Package driver is guardvet's standalone command line: flags, package
// loading through go/packages, the analysis through
// golang.org/x/tools/go/analysis/checker, and the text, JSON and SARIF
// outputs. The go vet protocol is left to unitchecker.
package driver

import (
	"errors"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/adopt"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configflag"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/runcache"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/version"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/vetproto"
)

type options struct {
	json, sarif, fix, diff, tests, version bool
	suggest                                bool
	tags, cpuprofile, memprofile, dir      string
	cache                                  string
	enable                                 map[string]*triState
	flags                                  *flag.FlagSet   // for the usage text
	userSet                                map[string]bool // the flags given on the command line

	// Adoption (adopt): the configuration file, the baseline, and
	// new-code-only runs.
	configFile, baseline, newFromRev string
	newFromMergeBase                 string
	writeBaseline                    bool
}

// triState is an enable flag that remembers whether it was set.
type triState struct {
	set, value bool
}

func (t *triState) String() string   { return fmt.Sprint(t.value) }
func (t *triState) IsBoolFlag() bool { return true }
func (t *triState) Set(s string) error {
	switch s {
	case "true", "1", "":
		t.value = true
	case "false", "0":
		t.value = false
	default:
		return fmt.Errorf("want true or false, got %q", s)
	}
	t.set = true
	return nil
}

// Main runs the standalone command and returns its exit code.
func Main(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" {
		return help(args[1:], analyzers, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "cache" {
		return cacheCommand(args[1:], stdout, stderr)
	}
	opts, patterns, err := parseFlags(args, analyzers, stderr)
	if err == flag.ErrHelp {
		usage(opts.flags, analyzers, stdout) // asked for: the output
		return output.ExitClean
	}
	if err != nil {
		return output.ExitError
	}
	if opts.version {
		fmt.Fprintln(stdout, version.Line())
		return output.ExitClean
	}
	if opts.dir != "" {
		if err := os.Chdir(opts.dir); err != nil {
			fmt.Fprintf(stderr, "guardvet: -C: %v\n", err)
			return output.ExitError
		}
	}
	if len(patterns) == 0 {
		fmt.Fprintln(stderr, "guardvet: no packages given; try guardvet ./... (guardvet -help for usage)")
		return output.ExitError
	}
	if opts.json && opts.sarif {
		fmt.Fprintln(stderr, "guardvet: -json and -sarif are exclusive; pick one output format")
		return output.ExitError
	}
	ad, err := prepareAdoption(opts, analyzers)
	if err != nil {
		line := "guardvet: " + err.Error()
		if confErr := (*configfile.Error)(nil); errors.As(err, &confErr) && confErr.Line > 0 {
			line = err.Error() // positioned, as a finding is
		}
		fmt.Fprintln(stderr, line)
		if opts.sarif { // as for a failed load: a log of the failed run
			_ = output.WriteSARIF(stdout, nil, analyzers, version.Module(), []string{line})
		}
		return output.ExitError
	}
	enabled := runAnalyzers(analyzers, opts)
	stop, ok := startProfiles(opts, stderr)
	if !ok {
		return output.ExitError
	}
	defer stop()
	prog := progress.Start(stderr, opts.json || opts.sarif)
	log := &errorLog{w: prog.Writer(stderr)}
	res, ok := analyse(opts, enabled, analyzers, patterns, prog, log)
	if ok {
		res, ok = ad.Modes(res, func(patterns []string) (output.Result, bool) {
			return analyse(opts, enabled, analyzers, patterns, prog, log)
		})
	}
	prog.Stop() // the line is erased before the output
	if !ok {
		if opts.sarif {
			// A code scanning upload with if: always() must not show a
			// clean scan: the log says the run failed, and why.
			_ = output.WriteSARIF(stdout, nil, analyzers, version.Module(), log.lines)
		}
		return output.ExitError
	}
	ad.HintUnannotated(res, stderr)
	res = ad.Filter(res)
	if ad.WritesBaseline() {
		return ad.WriteBaseline(res, enabled, stdout, stderr)
	}
	res = ad.ApplyBaseline(res, enabled, stderr)
	return report(opts, analyzers, res.Findings, res.Trees, res.Code, log.lines, stdout, stderr)
}

// startProfiles starts -cpuprofile and arranges -memprofile; the function
// it returns stops and writes them. ok is false when a profile cannot be
// started, which it says.
func startProfiles(opts *options, stderr io.Writer) (stop func(), ok bool) {
	var stops []func()
	if opts.cpuprofile != "" {
		f, err := os.Create(opts.cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "guardvet: -cpuprofile: %v\n", err)
			return nil, false
		}
		stops = append(stops, pprof.StopCPUProfile)
	}
	if opts.memprofile != "" {
		stops = append(stops, func() {
			f, err := os.Create(opts.memprofile)
			if err == nil {
				runtime.GC()
				err = pprof.WriteHeapProfile(f)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "guardvet: -memprofile: %v\n", err)
			}
		})
	}
	return func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}, true
}

// report prints the findings in the format asked for (or applies their
// fixes) and returns the exit code.
func report(opts *options, analyzers []*analysis.Analyzer, findings []output.Finding, trees []output.JSONTree, code int, errs []string, stdout, stderr io.Writer) int {
	switch {
	case opts.fix || opts.diff:
		fixed, err := output.ApplyFixes(findings, opts.diff, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "guardvet: %v\n", err)
			return output.ExitError
		}
		// What could not be fixed is still a finding: say so, list it, and
		// fail, so that -fix is never mistaken for a clean run.
		var left []output.Finding
		for _, f := range findings {
			if len(f.Diag.SuggestedFixes) == 0 {
				left = append(left, f)
			}
		}
		verb := "applied"
		if opts.diff {
			verb = "shown"
		}
		fmt.Fprintf(stderr, "guardvet: %s %s; %s no fix\n", output.Plural(fixed, "suggested fix", "suggested fixes"), verb, output.Plural(len(left), "finding has", "findings have"))
		if len(left) > 0 {
			output.PrintText(stderr, left)
			if code == output.ExitClean {
				code = output.ExitFindings
			}
		}
		return code
	case opts.json:
		if err := output.PrintJSON(stdout, trees); err != nil {
			fmt.Fprintf(stderr, "guardvet: %v\n", err)
			return output.ExitError
		}
	case opts.sarif:
		if err := output.WriteSARIF(stdout, findings, analyzers, version.Module(), errs); err != nil {
			fmt.Fprintf(stderr, "guardvet: %v\n", err)
			return output.ExitError
		}
	case opts.suggest:
		// Suggestions are the output asked for, not findings.
		output.PrintText(stdout, findings)
		if len(findings) == 0 {
			fmt.Fprintln(stderr, "guardvet: no directives to suggest")
		} else {
			fmt.Fprintf(stderr, "guardvet: %s suggested; guardvet -suggest -fix writes them, -suggest -diff shows them as a diff\n", output.Plural(len(findings), "directive", "directives"))
		}
		return code
	default:
		output.PrintText(stdout, findings) // findings are the output; errors go to stderr
	}
	if len(findings) > 0 && code == output.ExitClean {
		code = output.ExitFindings
	}
	return code
}

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

func hasErrors(p *packages.Package) bool {
	failed := false
	packages.Visit([]*packages.Package{p}, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || len(p.TypeErrors) > 0 {
			failed = true
		}
	})
	return failed
}

func parseFlags(args []string, analyzers []*analysis.Analyzer, stderr io.Writer) (*options, []string, error) {
	fs := flag.NewFlagSet("guardvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{enable: map[string]*triState{}}
	fs.BoolVar(&o.json, "json", false, "print diagnostics as JSON (the x/tools analysis shape)")
	fs.BoolVar(&o.sarif, "sarif", false, "print diagnostics as SARIF 2.1.0, for code scanning")
	fs.BoolVar(&o.fix, "fix", false, "apply suggested fixes to the files")
	fs.BoolVar(&o.diff, "diff", false, "print suggested fixes as a unified diff instead of applying them")
	fs.BoolVar(&o.tests, "test", true, "also check test files")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build `tags`, as for go build")
	fs.StringVar(&o.dir, "C", "", "change to `dir` before doing anything else, as go -C does (a module in a subdirectory of a repository)")
	fs.StringVar(&o.cache, "cache", "", "the result cache's `dir`, or off; default $"+runcache.EnvCache+", else guardvet in the user's cache directory (guardvet cache dir prints it)")
	fs.StringVar(&o.configFile, "config-file", "", "the configuration `file`, or off; default: "+configfile.Name+" in the working directory or the nearest directory above it, up to the repository root (outside one, the module root)")
	fs.StringVar(&o.baseline, "baseline", "", "report only the findings that are not in the baseline `file` (written by -write-baseline), and list its entries that no finding matches any more")
	fs.BoolVar(&o.writeBaseline, "write-baseline", false, "write the findings to the baseline file (-baseline, or baseline: in "+configfile.Name+") instead of reporting them; entries of files the run does not check are kept")
	fs.StringVar(&o.newFromRev, "new-from-rev", "", "report only the findings on lines added or changed since the git `revision` (committed, staged or not, and untracked files); a finding counts when one of its related positions is on such a line")
	fs.StringVar(&o.newFromMergeBase, "new-from-merge-base", "", "as -new-from-rev, from where the current branch left `ref` (git merge-base ref HEAD): a pull request's own changes, however far ref has moved since")
	fs.BoolVar(&o.version, "version", false, "print the version (module version, VCS revision, Go version) and exit")
	fs.BoolVar(&o.version, "V", false, "same as -version")
	configFlag := func(name string) func(string) error {
		return func(s string) error { return config.Analyzer.Flags.Set(name, s) }
	}
	fs.BoolFunc("infer", configflag.InferUsage, configFlag("infer"))
	fs.BoolFunc("strict", configflag.StrictUsage, configFlag("strict"))
	fs.BoolFunc("suggest", "print the directives guard inference would add, with evidence, and nothing else; with -fix, write them (same as -config.infer.suggest)", func(s string) error {
		o.suggest = s != "false" && s != "0"
		return configFlag("infer.suggest")(s)
	})
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile to `file`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a heap profile to `file` at exit")
	for _, a := range analyzers {
		switch {
		case a == config.Analyzer: // options, not a rule: it always runs
		case a.Name == "guardinfer":
			// The rule reports only under inference: naming it turns
			// inference on, so -guardinfer alone is not a silent no-op.
			t := &triState{value: true}
			o.enable[a.Name] = t
			fs.Var(quietTriState{t}, a.Name, "run only guard inference (naming the rule turns inference on, as -infer does); -guardinfer=false keeps inference's findings out of an -infer run")
		case a.Name == "shared":
			// Off by default (-config.shared): naming the rule turns it
			// on, as for guardinfer.
			t := &triState{value: true}
			o.enable[a.Name] = t
			fs.Var(quietTriState{t}, a.Name, "run only the shared rule, which is off by default: variables shared with goroutines and accessed with nothing ordering them (-config.shared adds it to the other rules)")
		default:
			t := &triState{value: true}
			o.enable[a.Name] = t
			fs.Var(quietTriState{t}, a.Name, "run the "+a.Name+" rule: "+output.FirstLine(a.Doc)+". Naming rules runs only the rules named, as go vet does (-"+a.Name+" alone runs "+a.Name+" and no other rule); -"+a.Name+"=false turns it off and keeps the others")
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	o.flags = fs
	// -help prints the usage to stdout (Main does it); a bad flag prints
	// the error and one line on where the usage is to stderr, not the
	// whole usage, which would bury the error.
	helpAsked := false
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		if n := strings.TrimLeft(a, "-"); n == "h" || n == "help" {
			helpAsked = true
		}
	}
	fs.Usage = func() {
		if !helpAsked {
			fmt.Fprintln(stderr, "usage: guardvet [flags] packages... (guardvet -help lists the flags and rules)")
		}
	}
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	o.userSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.userSet[f.Name] = true })
	inferenceFlags(fs, o, stderr)
	return o, fs.Args(), nil
}

// inferenceFlags makes -infer the one switch of guard inference: -infer
// and -suggest turn it on, and so does naming its rule (-guardinfer); an
// explicit -infer=false still wins. Its refinements (-config.infer.score,
// ratio, locked, prose) do nothing without it, which a note says.
func inferenceFlags(fs *flag.FlagSet, o *options, stderr io.Writer) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if t := o.enable["guardinfer"]; t != nil && t.set && t.value && !set["infer"] && !set["config.infer"] {
		configflag.MustSet("infer", "true")
	}
	if t := o.enable["shared"]; t != nil && t.set && t.value && !set["config.shared"] {
		configflag.MustSet("shared", "true")
	}
	on := func(name string) bool { return config.Analyzer.Flags.Lookup(name).Value.String() == "true" }
	if on("infer") || on("infer.suggest") {
		// -infer with rules named (-infer -shared) adds inference's rule
		// to them: asking for inference is asking for its findings.
		if t := o.enable["guardinfer"]; t != nil && !t.set && rulesNamed(o.enable) {
			t.set, t.value = true, true
		}
		return
	}
	for _, name := range []string{"config.infer.score", "config.infer.ratio", "config.infer.locked", "config.infer.prose", "config.infer.explain"} {
		if set[name] {
			fmt.Fprintf(stderr, "guardvet: -%s refines guard inference, which is off: add -infer\n", name)
		}
	}
}

// quietTriState is the guardinfer rule's enable flag: it prints no
// "(default true)" in the usage, since inference itself is off by default.
type quietTriState struct{ *triState }

func (q quietTriState) String() string {
	if q.triState == nil || !q.set {
		return "false"
	}
	return q.triState.String()
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

// runAnalyzers are the analyzers a run runs: those the rule flags
// select, or guard inference alone for -suggest.
func runAnalyzers(analyzers []*analysis.Analyzer, opts *options) []*analysis.Analyzer {
	if !opts.suggest {
		return selectAnalyzers(analyzers, opts.enable)
	}
	var enabled []*analysis.Analyzer
	for _, a := range analyzers {
		if a.Name == "guardinfer" {
			enabled = append(enabled, a)
		}
	}
	return enabled
}

// rulesNamed reports whether a rule flag selects rules (-NAME).
func rulesNamed(enable map[string]*triState) bool {
	for _, t := range enable {
		if t.set && t.value {
			return true
		}
	}
	return false
}

// selectAnalyzers applies the enable flags: naming rules with -NAME runs
// only those; -NAME=false removes one.
func selectAnalyzers(all []*analysis.Analyzer, enable map[string]*triState) []*analysis.Analyzer {
	only := rulesNamed(enable)
	var out []*analysis.Analyzer
	for _, a := range all {
		t := enable[a.Name]
		if t == nil || (only && t.set && t.value) || (!only && t.value) {
			out = append(out, a)
		}
	}
	return out
}

// annotated reports whether any package of the load, dependencies
// included, has a directive (directives.Annotates).
func annotated(pkgs []*packages.Package) bool {
	found := false
	packages.Visit(pkgs, func(p *packages.Package) bool { return !found }, func(p *packages.Package) {
		for _, f := range p.Syntax {
			found = found || adopt.FileAnnotated(f)
		}
	})
	return found
}

// runOptions sets the options a run derives from what it loaded, and
// returns the function that restores them: no summaries for annotated
// importers when nothing loaded has a directive (they would be computed
// for nobody), and the engine's early release of its records
// (lockstate.ReleaseEarly).
func runOptions(enabled []*analysis.Analyzer, pkgs []*packages.Package) (restore func(), err error) {
	undoSummaries := func() {}
	if !annotated(pkgs) {
		if undoSummaries, err = config.Set("summaries", "false"); err != nil {
			return nil, err
		}
	}
	var roots []*types.Package
	for _, p := range pkgs {
		roots = append(roots, p.Types)
	}
	undoRelease, err := lockstate.ReleaseEarly(enabled, roots)
	if err != nil {
		undoSummaries()
		return nil, err
	}
	return func() {
		undoRelease()
		undoSummaries()
	}, nil
}
