// Package suite lists guardvet's analyzers, for the command, the
// golangci-lint plugin and any other driver (Bazel nogo).
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/escape"
	"github.com/guardvet/guardvet/analyzer/guardedby"
	"github.com/guardvet/guardvet/analyzer/guardinfer"
	"github.com/guardvet/guardvet/analyzer/lockorder"
	"github.com/guardvet/guardvet/analyzer/noblock"
	"github.com/guardvet/guardvet/analyzer/shared"
	"github.com/guardvet/guardvet/analyzer/unusedignore"
)

// Analyzers are the analyzers whose diagnostics guardvet prints: the
// directive checker and the rules. The engine (lockstate) is reached
// through Requires.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		config.Analyzer, // options only; listed so that drivers register its flags
		directives.Analyzer,
		guardedby.Analyzer,
		lockorder.Analyzer,
		noblock.Analyzer,
		escape.Analyzer,
		checkthenact.Analyzer,
		guardinfer.Analyzer,
		shared.Analyzer,
		unusedignore.Analyzer,
	}
}
