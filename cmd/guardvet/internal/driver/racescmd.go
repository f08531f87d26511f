package driver

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/version"
	"github.com/guardvet/guardvet/races"
)

const racesUsage = `usage: guardvet races [flags] packages...

Finds data races in code with no annotations, across the whole program the
packages make: fields and package variables accessed from goroutines that
can run at the same time (main and the goroutines it starts, net/http
handlers, time.AfterFunc callbacks; for a library, the exported methods of
types that lock their own fields), at least one access a write, with no
lock held at both and nothing ordering them. Each finding names both
accesses and the call path to each. See docs/rules/races.md.

Flags:
`

// racesCommand runs guardvet races.
func racesCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardvet races", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tests := fs.Bool("tests", false, "load the packages' tests and make each test function a root (run once, alone)")
	jsonOut := fs.Bool("json", false, "print the findings as JSON (the x/tools tree: package → races → diagnostics, each with the other side as related)")
	sarifOut := fs.Bool("sarif", false, "print the findings as SARIF 2.1.0, the other side as a related location")
	dir := fs.String("C", "", "run in `dir`")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to `file`")
	memprofile := fs.String("memprofile", "", "write a heap profile to `file` once the findings are made")
	usage := func(w io.Writer) {
		fmt.Fprint(w, racesUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	fs.Usage = func() {} // printed once below, where it belongs
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return output.ExitClean
		}
		usage(stderr)
		return output.ExitError
	}
	if *jsonOut && *sarifOut {
		fmt.Fprintln(stderr, "guardvet races: -json and -sarif are exclusive; pick one output format")
		return output.ExitError
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "guardvet races: no packages given; try guardvet races ./...")
		return output.ExitError
	}
	if *dir != "" {
		if err := os.Chdir(*dir); err != nil {
			fmt.Fprintf(stderr, "guardvet races: -C: %v\n", err)
			return output.ExitError
		}
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "guardvet races: -cpuprofile: %v\n", err)
			return output.ExitError
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "guardvet races: -cpuprofile: %v\n", err)
			return output.ExitError
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	prog := progress.Start(stderr, *jsonOut || *sarifOut)
	res, err := races.Analyze(fs.Args(), races.Options{Tests: *tests, Progress: func(stage string) { prog.SetPhase("%s", stage) }})
	prog.Stop()
	if *memprofile != "" {
		if f, err := os.Create(*memprofile); err == nil {
			_ = pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		} else {
			fmt.Fprintf(stderr, "guardvet races: -memprofile: %v\n", err)
		}
	}
	rule := races.Describe()
	if err != nil {
		lines := racesErrorLines(err)
		for _, line := range lines {
			fmt.Fprintln(stderr, line)
		}
		if *sarifOut {
			_ = output.WriteSARIF(stdout, nil, []*analysis.Analyzer{rule}, version.Module(), lines[:1])
		}
		return output.ExitError
	}
	return printRaces(res, rule, *jsonOut, *sarifOut, stdout, stderr)
}

// racesErrorLines is what a run that stopped with err prints: load
// errors as the default run prints them (positions relative, each once),
// anything else after "guardvet races: ".
func racesErrorLines(err error) []string {
	var le *races.LoadError
	if errors.As(err, &le) {
		if lines := errorLines(le.Pkgs); len(lines) > 0 {
			return lines
		}
	}
	return strings.Split(strings.TrimSuffix("guardvet races: "+err.Error(), "\n"), "\n")
}

// printRaces writes a run's findings in the format asked for and returns
// the exit code.
func printRaces(res *races.Result, rule *analysis.Analyzer, jsonOut, sarifOut bool, stdout, stderr io.Writer) int {
	findings := make([]output.Finding, len(res.Diagnostics))
	for i, d := range res.Diagnostics {
		findings[i] = output.Finding{Analyzer: rule, Diag: d, Fset: res.Fset, Posn: res.Fset.Position(d.Pos)}
	}
	// Packages that failed to load were left out: their errors are
	// printed as the default run prints them, the findings in the rest
	// are reported, and the exit code says the run was incomplete.
	broken := errorLines(res.Broken)
	for _, line := range broken {
		fmt.Fprintln(stderr, line)
	}
	if len(broken) > 0 {
		fmt.Fprintf(stderr, "guardvet races: not analysed: %s named, which (or whose imports) failed to load or type-check, errors above; the findings are for the rest, as a program without them\n", output.Plural(len(res.Broken), "package", "packages"))
	}
	var err error
	switch {
	case jsonOut:
		err = output.PrintJSON(stdout, []output.JSONTree{racesTree(res, rule)})
	case sarifOut:
		err = output.WriteSARIF(stdout, findings, []*analysis.Analyzer{rule}, version.Module(), broken)
	default:
		output.PrintText(stdout, findings)
	}
	if err != nil {
		fmt.Fprintf(stderr, "guardvet races: %v\n", err)
		return output.ExitError
	}
	if !jsonOut && !sarifOut {
		fmt.Fprintf(stderr, "guardvet races: %s in %s, reached from %s\n",
			output.Plural(res.Functions, "function", "functions"), output.Plural(res.Packages, "package", "packages"), output.Plural(res.Roots, "goroutine root", "goroutine roots"))
	}
	if res.UnreachedAPI > 0 {
		fmt.Fprintf(stderr, "guardvet races: not analysed: %s of types that lock their own fields, which no main or test named here reaches (a library's exported methods are the roots only when no main is named and -tests is off); name the library's packages alone: guardvet races ./pkg/...\n",
			output.Plural(res.UnreachedAPI, "exported method", "exported methods"))
	}
	if res.Truncated {
		fmt.Fprintf(stderr, "guardvet races: the program has more goroutine roots than a run follows; the first %d were analysed\n", res.Roots)
	}
	switch {
	case len(broken) > 0:
		return output.ExitError
	case len(findings) > 0:
		return output.ExitFindings
	}
	return output.ExitClean
}

// racesTree is the -json tree: each finding under the package of its
// write.
func racesTree(res *races.Result, rule *analysis.Analyzer) output.JSONTree {
	byPkg := map[string][]analysis.Diagnostic{}
	for i, d := range res.Diagnostics {
		byPkg[res.PackageOf[i]] = append(byPkg[res.PackageOf[i]], d)
	}
	tree := output.JSONTree{}
	for pkg, diags := range byPkg {
		data, err := output.JSONDiagnostics(res.Fset, diags)
		if err != nil {
			continue // a diagnostic always marshals
		}
		tree[pkg] = map[string]json.RawMessage{rule.Name: data}
	}
	return tree
}
