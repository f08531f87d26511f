package config

import (
	"flag"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/docs"
)

// Analyzer returns the options as a *Config. It reports nothing; every
// other guardvet analyzer requires it, directly or through the engine.
var Analyzer = &analysis.Analyzer{
	Name:       "config",
	Doc:        docs.Extract(docFile, "config"),
	URL:        "https://github.com/guardvet/guardvet/blob/main/docs/output.md#flags",
	Run:        run,
	ResultType: reflect.TypeFor[*Config](),
	Flags:      *flagsFor(&options),
}

// options is what the flags set, at start-up: a driver parses its command
// line into Analyzer.Flags before any package is analysed, and nothing
// writes them after. A run reads them as a Config (FromFlags), and a
// driver that needs other options for a run makes a changed copy (With)
// and binds the analyzers to it (Bind), never writing options.
var options = Default()

// Default is the configuration with every option at its default.
func Default() Config {
	return Config{locked: true, prose: true, summaries: true, minScore: 5, ratio: 0.9}
}

// flagsFor is the option flags, bound to the fields of c.
// Each flag's default is c's value: registering a flag writes its default
// into the field, which must leave c as it is.
func flagsFor(c *Config) *flag.FlagSet {
	options := c
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.BoolVar(&options.infer, "infer", options.infer, "infer guards for fields without directives (guardvet -infer)")
	fs.BoolVar(&options.suggest, "infer.suggest", options.suggest, "under inference, report the directives to add (with evidence and a fix), not the accesses; implies -config.infer (guardvet -suggest)")
	fs.IntVar(&options.minScore, "infer.score", options.minScore, "under inference, the evidence a field's guard needs: one point per write made with the lock held and per function holding it at an access (at most 3 of each)")
	fs.Float64Var(&options.ratio, "infer.ratio", options.ratio, "under inference, share of a field's accesses that must hold the lock")
	fs.BoolVar(&options.locked, "infer.locked", options.locked, "under inference, read a method named ...Locked as holding its receiver's lock")
	fs.BoolVar(&options.prose, "infer.prose", options.prose, "under inference, check fields whose comments say which lock guards them")
	fs.BoolVar(&options.explain, "infer.explain", options.explain, "under inference, end each finding with the evidence behind it: writes made with the lock held, the functions that hold it, and where the reported access runs")
	fs.BoolVar(&options.unannotated, "unannotated", options.unannotated, "lockorder: also infer lock order (and find self-deadlocks) in packages without guardvet directives")
	fs.BoolVar(&options.shared, "shared", options.shared, "run the shared rule: variables shared with goroutines, written and accessed with nothing ordering them (guardvet -shared)")
	fs.BoolVar(&options.strict, "strict", options.strict, "checkthenact and escape also report what they leave out by default because nothing can be lost there: an act a callee decides from its own read, a store-if-differs or one-way store, a copy-on-write or nil map or slice handed out (guardvet -strict)")
	fs.BoolVar(&options.allrules, "allrules", options.allrules, "in packages with no directives of their own that import annotated ones, run every rule (lock balance, self-deadlock, lock order, noblock, escape, check-then-act), not only the checks of the imported contracts")
	fs.IntVar(&options.readers, "readers", options.readers, "internal, set by the standalone guardvet: how many analyzers of the run read the engine's per-function results in each package it checks, so that the engine drops them once the last is done (0, the default: keep them)")
	fs.IntVar(&options.depReaders, "readers.deps", options.depReaders, "internal, set by the standalone guardvet with -config.readers: how many of those analyzers also run in the dependencies of the packages checked (the rules with facts), where the others do not run")
	fs.Var(&options.roots, "roots", "internal, set by the standalone guardvet with -config.readers: the import paths of the packages the run checks, comma-separated; the others are dependencies, where only the -config.readers.deps readers run (empty, the default: every package counts as checked)")
	fs.BoolVar(&options.summaries, "summaries", options.summaries, "in packages without directives, compute the lock summaries that annotated importers read (lock helpers' effects, what exported methods do through their receiver); guardvet turns this off when no package it loads has a directive, since then nothing reads them")
	return fs
}

// ruleOptions names the rules that have options of their own. Their
// flags are -RULE.NAME, registered on the rule's analyzer (RuleFlags) so
// that go vet and golangci-lint find them there, but what they set is
// part of the Config, fixed for a run like every other option.
var ruleOptions = []string{"noblock"}

// RuleFlags is the flag set of rule's own options, bound to the options
// the flags set at start-up, for the rule's analysis.Analyzer.Flags.
func RuleFlags(rule string) flag.FlagSet { return *ruleFlagsFor(&options, rule) }

// IsRuleOption reports whether -RULE.NAME is one of the rules' own
// options, part of the Config (With takes it as RULE.NAME).
func IsRuleOption(rule, name string) bool {
	return slices.Contains(ruleOptions, rule) && ruleFlagsFor(new(Config), rule).Lookup(name) != nil
}

// ruleFlagsFor is rule's own option flags, bound to the fields of c, with
// c's values as their defaults (see flagsFor).
func ruleFlagsFor(c *Config, rule string) *flag.FlagSet {
	fs := flag.NewFlagSet(rule, flag.ContinueOnError)
	switch rule {
	case "noblock":
		fs.BoolVar(&c.noblockAll, "all", c.noblockAll, "treat every lock as //guard:noblock")
	default:
		panic("config: no options for rule " + rule)
	}
	return fs
}

func run(*analysis.Pass) (any, error) {
	return FromFlags(), nil
}

// FromFlags is the configuration the flags set.
func FromFlags() *Config {
	c := options
	return &c
}

// Config is the options of one run, as the flags set them (their defaults
// are in flags: the zero Config is not the default configuration).
type Config struct {
	infer, suggest, locked, prose, unannotated, allrules, summaries bool
	shared, explain, strict                                         bool
	noblockAll                                                      bool // a rule's own option: -noblock.all
	minScore, readers, depReaders                                   int
	ratio                                                           float64
	roots                                                           pathSet
}

// InferThreshold is how much evidence inference needs before it infers a
// field's guard: a score of at least minScore (guardinfer's evidence
// points), and a share ratio of its accesses with the lock held.
func (c *Config) InferThreshold() (minScore int, ratio float64) { return c.minScore, c.ratio }

// Infer reports whether guard inference is on.
func (c *Config) Infer() bool { return c.infer || c.suggest }

// Suggest reports whether inference reports directives to add instead of
// accesses.
func (c *Config) Suggest() bool { return c.suggest }

// LockedConvention reports whether a method named ...Locked counts as
// holding its receiver's lock (under inference only).
func (c *Config) LockedConvention() bool { return c.Infer() && c.locked }

// ProseGuards reports whether "guarded by mu" comments are guards to
// check (under inference only).
func (c *Config) ProseGuards() bool { return c.Infer() && c.prose }

// Explain reports whether inference's findings carry their evidence
// (under inference only).
func (c *Config) Explain() bool { return c.Infer() && c.explain }

// UnannotatedOrder reports whether lockorder runs in packages without
// directives.
func (c *Config) UnannotatedOrder() bool { return c.unannotated }

// AnalyseUnannotated reports whether the engine analyses the bodies of
// packages without directives: inference and unannotated lock order need
// them.
func (c *Config) AnalyseUnannotated() bool { return c.Infer() || c.unannotated || c.shared }

// Shared reports whether the shared rule (variables shared with
// goroutines) is on.
func (c *Config) Shared() bool { return c.shared }

// RecordVars reports whether the engine records the uses of package-level
// and captured variables (lockstate.Func.Vars): the shared rule reads them.
func (c *Config) RecordVars() bool { return c.shared }

// Summaries reports whether packages without directives compute the
// summaries their annotated importers read. The standalone driver turns it
// off when no package of the run has a directive: no rule reports in such
// a run (without inference, -config.unannotated or the shared rule, which
// analyse every body anyway), so nothing would read them.
func (c *Config) Summaries() bool { return c.summaries }

// Readers is how many analyzers of the run read lockstate's per-function
// results in pkg, or 0 if unknown (lockstate.Result.Done). In a package
// the run checks, every rule does; in one it only analyses as a
// dependency, only the rules with facts run. Unless the driver said which
// packages it checks (-config.roots), every package counts as checked.
// Packages are known by import path: a test variant of a checked package
// counts as checked, which at worst keeps its records to the end.
func (c *Config) Readers(pkg *types.Package) int {
	if len(c.roots) > 0 && !c.roots[pkg.Path()] {
		return c.depReaders
	}
	return c.readers
}

// Strict reports whether checkthenact and escape also report the shapes
// they leave out by default because nothing can be lost there: a
// check-then-act whose act re-checks in a callee or cannot lose an
// update, a copy-on-write or nil value handed out.
func (c *Config) Strict() bool { return c.strict }

// AllRules reports whether every rule runs in packages that only import
// directives.
func (c *Config) AllRules() bool { return c.allrules }

// NoblockAll reports whether noblock treats every lock as
// //guard:noblock (-noblock.all).
func (c *Config) NoblockAll() bool { return c.noblockAll }

// Of returns the Config of a pass whose analyzer requires Analyzer, or
// the analyzer Bind put in its place.
func Of(pass *analysis.Pass) *Config {
	for _, v := range pass.ResultOf {
		if c, ok := v.(*Config); ok {
			return c
		}
	}
	panic("config.Of: the analyzer " + pass.Analyzer.Name + " does not require config.Analyzer")
}

// pathSet is a set of import paths, written as a comma-separated list.
// Import paths hold no commas.
type pathSet map[string]bool

func (ps pathSet) String() string {
	return strings.Join(slices.Sorted(maps.Keys(ps)), ",")
}

// Set replaces the set with the paths of list.
func (ps *pathSet) Set(list string) error {
	*ps = pathSet{}
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			(*ps)[p] = true
		}
	}
	return nil
}
