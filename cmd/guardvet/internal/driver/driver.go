// Package driver is guardvet's standalone command line: Main, the flags
// (flags.go), -help (help.go), guardvet cache (cachecmd.go), and the
// orchestration of a run: the packages loaded through go/packages
// (load.go) and analysed through golang.org/x/tools/go/analysis/checker
// (analyse.go), guardvet races (racescmd.go, the whole-program mode of
// package races), with the result cache (runcache), adoption (adopt), the
// progress line (progress) and the outputs (output). The go vet protocol
// is vetproto's and unitchecker's.
package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/version"
)

// Main runs the standalone command and returns its exit code.
func Main(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" {
		return help(args[1:], analyzers, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "cache" {
		return cacheCommand(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "races" {
		return racesCommand(args[1:], stdout, stderr)
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
	res, ok := analyse(opts, ad.Config(), enabled, analyzers, patterns, prog, log)
	if ok {
		res, ok = ad.Modes(res, func(patterns []string, conf *config.Config) (output.Result, bool) {
			return analyse(opts, conf, enabled, analyzers, patterns, prog, log)
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
