package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/baseline"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configflag"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/gitdiff"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// adoption is what a run applies to its findings after the analysis, for
// turning guardvet on in a codebase that has findings already: the
// configuration file's exclusions and per-directory rules, -new-from-rev,
// and the baseline.
type adoption struct {
	conf    *configfile.File // nil without one
	top     mode             // the analysis mode outside the file's overrides
	modal   bool             // overrides change the mode somewhere: more than one pass
	decided map[string]bool  // the rules the command line decides: the file's settings of them do not count
	changes *gitdiff.Changes // -new-from-rev; nil without it
	base    *baseline.File   // the baseline read; nil without one, or when writing it anew
	path    string           // the baseline file's path
	write   bool             // -write-baseline
}

// offByDefault are the rules that run only when asked for.
var offByDefault = map[string]bool{"guardinfer": true, "shared": true}

// prepareAdoption reads the configuration file and applies it to the
// flags the command line did not set, reads the baseline, and lists the
// lines changed since -new-from-rev. Its errors say which file or flag.
func prepareAdoption(opts *options, analyzers []*analysis.Analyzer) (*adoption, error) {
	ad := &adoption{decided: decidedRules(opts), write: opts.writeBaseline}
	conf, err := loadConfigFile(opts, analyzers)
	if err != nil {
		return nil, err
	}
	if conf != nil {
		if err := ad.apply(conf, opts); err != nil {
			return nil, err
		}
	}
	ad.path = opts.baseline
	if ad.path == "" && conf != nil {
		ad.path = conf.Baseline
	}
	switch {
	case ad.write && ad.path == "":
		return nil, fmt.Errorf("-write-baseline: no baseline file: name it with -baseline FILE, or baseline: in %s", configfile.Name)
	case opts.newFromRev != "" && opts.newFromMergeBase != "":
		return nil, errors.New("-new-from-rev and -new-from-merge-base both name where changes start: give one")
	case ad.write && (opts.newFromRev != "" || opts.newFromMergeBase != ""):
		return nil, errors.New("-write-baseline records every finding: drop -new-from-rev and -new-from-merge-base")
	case ad.write && (opts.fix || opts.diff || opts.suggest):
		return nil, errors.New("-write-baseline records findings: drop -fix, -diff and -suggest")
	case ad.path != "":
		ad.base, err = baseline.Read(ad.path)
		if errors.Is(err, fs.ErrNotExist) {
			if ad.write {
				break // written below
			}
			return nil, fmt.Errorf("baseline %s does not exist; guardvet -write-baseline writes it (with -baseline %s, or baseline: in %s)", output.RelPath(ad.path), output.RelPath(ad.path), configfile.Name)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := ad.changedLines(opts); err != nil {
		return nil, err
	}
	return ad, nil
}

// changedLines lists the lines changed since -new-from-rev's revision,
// or since -new-from-merge-base's merge base.
func (ad *adoption) changedLines(opts *options) error {
	rev, flag := opts.newFromRev, "-new-from-rev"
	if rev == "" && opts.newFromMergeBase == "" {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if opts.newFromMergeBase != "" {
		flag = "-new-from-merge-base"
		if rev, err = gitdiff.MergeBase(wd, opts.newFromMergeBase); err != nil {
			return fmt.Errorf("%s: %v", flag, err)
		}
	}
	if ad.changes, err = gitdiff.Since(wd, rev); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	return nil
}

// decidedRules are the rules the command line decides: every rule when
// rules are named (-NAME runs only those), else those set by name, and
// inference and the shared rule when their switches are given.
func decidedRules(opts *options) map[string]bool {
	decided := map[string]bool{}
	named := rulesNamed(opts.enable)
	for name, t := range opts.enable {
		decided[name] = named || t.set
	}
	for _, f := range []string{"infer", "config.infer", "suggest", "config.infer.suggest"} {
		if opts.userSet[f] {
			decided["guardinfer"] = true
		}
	}
	if opts.userSet["config.shared"] {
		decided["shared"] = true
	}
	return decided
}

// loadConfigFile finds and reads the configuration file (-config-file, or
// the nearest .guardvet.yaml); nil when there is none.
func loadConfigFile(opts *options, analyzers []*analysis.Analyzer) (*configfile.File, error) {
	path := opts.configFile
	switch path {
	case "off":
		return nil, nil
	case "":
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if path, err = configfile.Find(wd); err != nil || path == "" {
			return nil, err
		}
	}
	var rules []string
	for _, a := range analyzers {
		if a != config.Analyzer {
			rules = append(rules, a.Name)
		}
	}
	// relPath: errors name the file as findings name files.
	return configfile.Load(output.RelPath(path), configfile.Schema{Rules: rules, Flag: func(name, value string) error {
		return checkFileFlag(opts.flags, name, value)
	}})
}

// checkFileFlag says whether the configuration file may set the flag
// -name to value: an analyzer's flag (-ANALYZER.FLAG) that exists, with a
// value of its type; rules and inference have keys of their own.
func checkFileFlag(fs *flag.FlagSet, name, value string) error {
	f := fs.Lookup(name)
	switch {
	case name == "test" || name == "tags":
	case f == nil || !strings.Contains(name, "."):
		return errors.New("no such analyzer flag; guardvet -help lists them as -ANALYZER.FLAG")
	case name == "config.infer" || name == "config.infer.suggest" || name == "config.shared":
		return errors.New("set it with the keys infer and shared")
	case strings.HasPrefix(f.Usage, "internal"):
		return errors.New("an internal flag, set by guardvet itself")
	}
	getter, ok := f.Value.(flag.Getter)
	if !ok {
		return nil
	}
	var err error
	switch getter.Get().(type) {
	case bool:
		_, err = strconv.ParseBool(value)
		if err != nil {
			err = errors.New("want true or false")
		}
	case int:
		if _, perr := strconv.Atoi(value); perr != nil {
			err = errors.New("want a whole number")
		}
	case float64:
		if _, perr := strconv.ParseFloat(value, 64); perr != nil {
			err = errors.New("want a number")
		}
	}
	return err
}

// apply sets what the configuration file sets and the command line does
// not: its flags, and which rules run. A rule on anywhere in the tree
// runs; filter then keeps its findings where the file has it on.
func (ad *adoption) apply(conf *configfile.File, opts *options) error {
	ad.conf = conf
	for _, f := range conf.Flags {
		if opts.userSet[f.Name] {
			continue // the command line wins
		}
		if err := opts.flags.Set(f.Name, f.Value); err != nil {
			return &configfile.Error{File: conf.Path, Line: f.Line, Msg: fmt.Sprintf("%s: %v", f.Name, err)}
		}
	}
	for _, rule := range conf.RulesSet() {
		if ad.decided[rule] {
			continue
		}
		top := conf.Top(rule, !offByDefault[rule])
		switch rule {
		case "guardinfer", "shared":
			// Analysis modes, not only reporters: inference makes
			// guardedby check ...Locked names, and both analyse
			// packages without directives. A directory with another
			// mode gets a pass of its own (modes).
			ad.modal = ad.modal || conf.Varies(rule, top)
			if top {
				configflag.MustSet(map[string]string{"guardinfer": "infer", "shared": "shared"}[rule], "true")
			}
		default:
			if !conf.RuleAnywhere(rule, true) {
				opts.enable[rule].set, opts.enable[rule].value = true, false
			}
		}
	}
	ad.top = currentMode()
	return nil
}

// mode is what a package's analysis depends on besides the rules: guard
// inference, and the shared rule's recording of variables.
type mode struct{ infer, shared bool }

func currentMode() mode {
	c := config.Analyzer.Flags
	return mode{infer: c.Lookup("infer").Value.String() == "true", shared: c.Lookup("shared").Value.String() == "true"}
}

// setMode sets the mode, and returns the function that restores it.
func setMode(m mode) (restore func()) {
	before := currentMode()
	configflag.MustSet("infer", fmt.Sprint(m.infer))
	configflag.MustSet("shared", fmt.Sprint(m.shared))
	return func() {
		configflag.MustSet("infer", fmt.Sprint(before.infer))
		configflag.MustSet("shared", fmt.Sprint(before.shared))
	}
}

// modeOf is a file's mode: the top level's, changed where the
// configuration file's overrides change inference or the shared rule
// and the command line does not decide them.
func (ad *adoption) modeOf(file string) mode {
	m := ad.top
	if !ad.decided["guardinfer"] {
		m.infer = ad.conf.RuleOn("guardinfer", file, m.infer)
	}
	if !ad.decided["shared"] {
		m.shared = ad.conf.RuleOn("shared", file, m.shared)
	}
	return m
}

// modes re-analyses, in the mode the configuration file gives them, the
// packages with files whose mode is not the top level's, one pass per
// mode, and keeps each file's findings from the pass in its mode. pass
// analyses patterns in the mode set.
func (ad *adoption) modes(res output.Result, pass func(patterns []string) (output.Result, bool)) (output.Result, bool) {
	if !ad.modal {
		return res, true
	}
	byMode := map[mode]map[string]bool{} // mode → the package directories with a file in it
	for file := range res.Checked {
		if m := ad.modeOf(file); m != ad.top && res.Dirs[filepath.Dir(file)] {
			if byMode[m] == nil {
				byMode[m] = map[string]bool{}
			}
			byMode[m][filepath.Dir(file)] = true
		}
	}
	out := res.Keep(func(f output.Finding) bool { return ad.modeOf(f.Posn.Filename) == ad.top })
	for _, m := range []mode{{false, false}, {false, true}, {true, false}, {true, true}} {
		if byMode[m] == nil {
			continue
		}
		restore := setMode(m)
		other, ok := pass(dirPatterns(byMode[m]))
		restore()
		if !ok {
			return other, false
		}
		other = other.Keep(func(f output.Finding) bool { return ad.modeOf(f.Posn.Filename) == m })
		out.Findings = output.Sort(append(out.Findings, other.Findings...))
		out.Trees = append(out.Trees, other.Trees...)
		out.Code = max(out.Code, other.Code)
	}
	return out, true
}

// dirPatterns are the patterns that load the packages in dirs: ./DIR
// below the working directory, else the directory itself, sorted.
func dirPatterns(dirs map[string]bool) []string {
	wd, _ := os.Getwd() // without it, absolute directories
	var out []string
	for d := range dirs {
		if rel, err := filepath.Rel(wd, d); err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, "./"+filepath.ToSlash(rel))
		} else {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// filter drops the findings the configuration file excludes or turns
// off where they are, and, with -new-from-rev, those with no position on
// a changed line.
func (ad *adoption) filter(res output.Result) output.Result {
	if ad.conf == nil && ad.changes == nil {
		return res
	}
	return res.Keep(func(f output.Finding) bool {
		file := f.Posn.Filename
		if ad.conf != nil {
			rule := f.Analyzer.Name
			if ad.conf.Excluded(file) || (!ad.decided[rule] && !ad.conf.RuleOn(rule, file, !offByDefault[rule])) {
				return false
			}
		}
		if ad.changes == nil || ad.changes.Changed(file, f.Posn.Line) {
			return true
		}
		for _, r := range f.Diag.Related {
			if p := f.Fset.Position(r.Pos); ad.changes.Changed(p.Filename, p.Line) {
				return true
			}
		}
		return false
	})
}

// entries are the findings as baseline entries, with fingerprints.
func (ad *adoption) entries(findings []output.Finding) []baseline.Finding {
	dir := filepath.Dir(ad.path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	name := func(file string) string { return relTo(dir, file) }
	fingerprints := output.Fingerprints(findings, name)
	out := make([]baseline.Finding, len(findings))
	for i, f := range findings {
		out[i] = baseline.Finding{Rule: f.Analyzer.Name, File: name(f.Posn.Filename), Line: f.Posn.Line, Message: f.Diag.Message, Fingerprint: fingerprints[i]}
	}
	return out
}

// checkedFunc reports whether a baseline entry's file was checked, or is
// gone (deleted or renamed): either way the run knows all its findings.
func (ad *adoption) checkedFunc(res output.Result) func(string) bool {
	dir, _ := filepath.Abs(filepath.Dir(ad.path)) // a relative path made absolute: only a missing working directory fails, and then nothing matches
	return func(file string) bool {
		abs := filepath.Join(dir, filepath.FromSlash(file))
		if res.Checked[abs] {
			return true
		}
		_, err := os.Stat(abs)
		return errors.Is(err, fs.ErrNotExist)
	}
}

// inScope reports whether a baseline entry is one this run could have
// reported: its file was checked, its rule ran there (the rule flags,
// the configuration file's settings for the file, -infer and -shared for
// their rules), and, with -new-from-rev, its line is one the run keeps.
// An entry of a deleted or renamed file is in every run's scope: no run
// can report it again. Entries out of scope are neither matched nor
// stale, and -write-baseline keeps them.
func (ad *adoption) inScope(res output.Result, enabled []*analysis.Analyzer) func(baseline.Finding) bool {
	checked := ad.checkedFunc(res)
	ran := map[string]bool{}
	for _, a := range enabled {
		ran[a.Name] = true
	}
	dir, _ := filepath.Abs(filepath.Dir(ad.path))
	return func(e baseline.Finding) bool {
		if !checked(e.File) {
			return false
		}
		abs := filepath.Join(dir, filepath.FromSlash(e.File))
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			return true
		}
		m := currentMode()
		if ad.conf != nil {
			m = ad.modeOf(abs)
		}
		switch {
		case !ran[e.Rule], e.Rule == "guardinfer" && !m.infer, e.Rule == "shared" && !m.shared:
			return false
		case ad.conf != nil && (ad.conf.Excluded(abs) || (!ad.decided[e.Rule] && !ad.conf.RuleOn(e.Rule, abs, !offByDefault[e.Rule]))):
			return false
		}
		return ad.changes == nil || ad.changes.Changed(abs, e.Line)
	}
}

// applyBaseline drops the findings the baseline lists, and reports its
// entries in the run's scope that no finding matches any more.
func (ad *adoption) applyBaseline(res output.Result, enabled []*analysis.Analyzer, stderr io.Writer) output.Result {
	if ad.base == nil {
		return res
	}
	isNew, stale := ad.base.Match(ad.entries(res.Findings), ad.inScope(res, enabled))
	i := 0
	res = res.Keep(func(output.Finding) bool { i++; return isNew[i-1] })
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "guardvet: baseline %s: %s no finding matches any more (fixed, or its line changed); guardvet -write-baseline rewrites the file without %s:\n",
			output.RelPath(ad.path), output.Plural(len(stale), "entry", "entries"), map[bool]string{true: "it", false: "them"}[len(stale) == 1])
		for _, e := range stale {
			fmt.Fprintf(stderr, "\t%s:%d: %s (%s)\n", e.File, e.Line, e.Message, e.Rule)
		}
	}
	return res
}

// writeBaseline writes the run's findings to the baseline file, keeping
// the entries out of its scope (see inScope). A run with errors writes
// nothing: its findings are not all there.
func (ad *adoption) writeBaseline(res output.Result, enabled []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if res.Code == output.ExitError {
		fmt.Fprintf(stderr, "guardvet: -write-baseline: %s not written: the run had errors\n", output.RelPath(ad.path))
		return output.ExitError
	}
	current := ad.entries(res.Findings)
	all := ad.base.Update(current, ad.inScope(res, enabled))
	if err := baseline.Write(ad.path, all); err != nil {
		fmt.Fprintf(stderr, "guardvet: -write-baseline: %v\n", err)
		return output.ExitError
	}
	fmt.Fprintf(stderr, "guardvet: wrote %s: %s\n", output.RelPath(ad.path), output.Plural(len(all), "finding", "findings"))
	return output.ExitClean
}

// relTo is file relative to dir (../ included), with forward slashes;
// file itself when it has no relative path (another volume).
func relTo(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}
