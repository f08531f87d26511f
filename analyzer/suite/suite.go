// Package suite lists guardvet's analyzers, for the command, the
// golangci-lint plugin and any other driver (Bazel nogo).
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/unusedignore"
)

// Analyzers are the analyzers whose diagnostics guardvet prints: the
// directive checker, the rules (unusedignore.Rules, the one list of them)
// and unusedignore. The engine (lockstate) is reached through Requires.
func Analyzers() []*analysis.Analyzer {
	out := []*analysis.Analyzer{
		config.Analyzer, // options only; listed so that drivers register its flags
		directives.Analyzer,
	}
	out = append(out, unusedignore.Rules...)
	return append(out, unusedignore.Analyzer)
}
