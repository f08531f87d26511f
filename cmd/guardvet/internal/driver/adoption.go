package driver

import (
	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/adopt"
)

// prepareAdoption prepares what the run applies to its findings for
// adoption (adopt.Prepare), from the command line.
func prepareAdoption(opts *options, analyzers []*analysis.Analyzer) (*adopt.Adoption, error) {
	return adopt.Prepare(adopt.Options{
		ConfigFile: opts.configFile, Baseline: opts.baseline, WriteBaseline: opts.writeBaseline,
		NewFromRev: opts.newFromRev, NewFromMergeBase: opts.newFromMergeBase,
		Fix: opts.fix, Diff: opts.diff, Suggest: opts.suggest,
		Flags: opts.flags, UserSet: opts.userSet, Decided: decidedRules(opts),
	}, analyzers)
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
