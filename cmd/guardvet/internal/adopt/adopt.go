// Package adopt is what a standalone run applies to its findings after
// the analysis, for turning guardvet on in a codebase that has findings
// already: the configuration file (.guardvet.yaml) applied to the flags
// and to the findings, -new-from-rev's changed lines, the baseline, and
// the hint printed when nothing checked has a directive.
package adopt

import (
	"errors"
	"flag"
	"fmt"
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

// Options are the settings of the command line that adoption reads.
type Options struct {
	ConfigFile       string          // -config-file: the file, off, or "" to look for .guardvet.yaml
	Baseline         string          // -baseline
	WriteBaseline    bool            // -write-baseline
	NewFromRev       string          // -new-from-rev
	NewFromMergeBase string          // -new-from-merge-base
	Fix, Diff        bool            // -fix, -diff
	Suggest          bool            // -suggest
	Flags            *flag.FlagSet   // the command line's flags: the configuration file sets those it does not
	UserSet          map[string]bool // the flags given on the command line
	Decided          map[string]bool // the rules the command line decides: the file's settings of them do not count
}

// Adoption is what a run applies to its findings after the analysis, for
// turning guardvet on in a codebase that has findings already: the
// configuration file's exclusions and per-directory rules, -new-from-rev,
// and the baseline.
type Adoption struct {
	conf    *configfile.File // nil without one
	top     mode             // the analysis mode outside the file's overrides
	modal   bool             // overrides change the mode somewhere: more than one pass
	decided map[string]bool  // the rules the command line decides: the file's settings of them do not count
	changes *gitdiff.Changes // -new-from-rev; nil without it
	base    *baseline.File   // the baseline read; nil without one, or when writing it anew
	path    string           // the baseline file's path
	write   bool             // -write-baseline
	cfg     *config.Config   // the run's configuration, fixed once the flags and the file are read
}

// offByDefault are the rules that run only when asked for.
var offByDefault = map[string]bool{"guardinfer": true, "shared": true}

// Prepare reads the configuration file and applies it to the flags the
// command line did not set, reads the baseline, and lists the lines
// changed since -new-from-rev. Its errors say which file or flag.
func Prepare(opts Options, analyzers []*analysis.Analyzer) (*Adoption, error) {
	ad := &Adoption{decided: opts.Decided, write: opts.WriteBaseline}
	conf, err := loadConfigFile(opts, analyzers)
	if err != nil {
		return nil, err
	}
	if conf != nil {
		if err := ad.apply(conf, opts); err != nil {
			return nil, err
		}
	}
	ad.cfg = config.FromFlags() // the flags and the file are all read: fixed from here on
	ad.top = modeOf(ad.cfg)
	ad.path = opts.Baseline
	if ad.path == "" && conf != nil {
		ad.path = conf.Baseline
	}
	switch {
	case ad.write && ad.path == "":
		return nil, fmt.Errorf("-write-baseline: no baseline file: name it with -baseline FILE, or baseline: in %s", configfile.Name)
	case opts.NewFromRev != "" && opts.NewFromMergeBase != "":
		return nil, errors.New("-new-from-rev and -new-from-merge-base both name where changes start: give one")
	case ad.write && (opts.NewFromRev != "" || opts.NewFromMergeBase != ""):
		return nil, errors.New("-write-baseline records every finding: drop -new-from-rev and -new-from-merge-base")
	case ad.write && (opts.Fix || opts.Diff || opts.Suggest):
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
func (ad *Adoption) changedLines(opts Options) error {
	rev, flag := opts.NewFromRev, "-new-from-rev"
	if rev == "" && opts.NewFromMergeBase == "" {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if opts.NewFromMergeBase != "" {
		flag = "-new-from-merge-base"
		if rev, err = gitdiff.MergeBase(wd, opts.NewFromMergeBase); err != nil {
			return fmt.Errorf("%s: %v", flag, err)
		}
	}
	if ad.changes, err = gitdiff.Since(wd, rev); err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	return nil
}

// loadConfigFile finds and reads the configuration file (-config-file, or
// the nearest .guardvet.yaml); nil when there is none.
func loadConfigFile(opts Options, analyzers []*analysis.Analyzer) (*configfile.File, error) {
	path := opts.ConfigFile
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
	// output.RelPath: errors name the file as findings name files.
	return configfile.Load(output.RelPath(path), configfile.Schema{Rules: rules, Flag: func(name, value string) error {
		return checkFileFlag(opts.Flags, name, value)
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
func (ad *Adoption) apply(conf *configfile.File, opts Options) error {
	ad.conf = conf
	for _, f := range conf.Flags {
		if opts.UserSet[f.Name] {
			continue // the command line wins
		}
		if err := opts.Flags.Set(f.Name, f.Value); err != nil {
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
				// Off everywhere: as -RULE=false on the command line.
				if err := opts.Flags.Set(rule, "false"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// mode is what a package's analysis depends on besides the rules: guard
// inference, and the shared rule's recording of variables.
type mode struct{ infer, shared bool }

func modeOf(c *config.Config) mode { return mode{infer: c.Infer(), shared: c.Shared()} }

// Config is the configuration of the run's first pass: the command line's
// and the configuration file's, fixed once both are read. Modes makes the
// other passes' from it.
func (ad *Adoption) Config() *config.Config { return ad.cfg }

// modeOf is a file's mode: the top level's, changed where the
// configuration file's overrides change inference or the shared rule
// and the command line does not decide them.
func (ad *Adoption) modeOf(file string) mode {
	m := ad.top
	if !ad.decided["guardinfer"] {
		m.infer = ad.conf.RuleOn("guardinfer", file, m.infer)
	}
	if !ad.decided["shared"] {
		m.shared = ad.conf.RuleOn("shared", file, m.shared)
	}
	return m
}

// Modes re-analyses, in the mode the configuration file gives them, the
// packages with files whose mode is not the top level's, one pass per
// mode, and keeps each file's findings from the pass in its mode. pass
// analyses patterns under the configuration given, the run's with the
// mode's inference and shared rule.
func (ad *Adoption) Modes(res output.Result, pass func(patterns []string, c *config.Config) (output.Result, bool)) (output.Result, bool) {
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
		c := ad.cfg.MustWith("infer", fmt.Sprint(m.infer)).MustWith("shared", fmt.Sprint(m.shared))
		other, ok := pass(dirPatterns(byMode[m]), c)
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

// Filter drops the findings the configuration file excludes or turns
// off where they are, and, with -new-from-rev, those with no position on
// a changed line.
func (ad *Adoption) Filter(res output.Result) output.Result {
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
