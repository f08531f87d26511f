package driver

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configflag"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/runcache"
)

// options are the standalone command line's settings.
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
