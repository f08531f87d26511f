// Command guardvet-corpus is the corpus gate: it runs a prebuilt guardvet
// on pinned real code and compares the diagnostics with the checked-in
// expected list. It is what `make corpus` runs.
//
// Usage:
//
//	guardvet-corpus -guardvet BIN [-corpus DIR] [-repo DIR] [-sets a,b] [-update]
//
// The sets are in DIR/sets (name, where it runs, guardvet's arguments); the
// expected diagnostics, one per line with a verdict and a reason, in
// DIR/expected.txt. For each set it prints the number of diagnostics found,
// expected, unexpected and missing, the untriaged entries, guardvet's wall
// time and peak RSS; then every unexpected and missing diagnostic.
//
// Exit codes: 0 when every diagnostic is expected, every expected one is
// reported and every entry is triaged (true, benign, or false for a rule that
// is off by default); 1 otherwise; 2 when
// a set cannot be run or trusted (guardvet exit 2: load or type errors; a
// failed analysis; a crash) or a file is malformed.
//
// -update rewrites expected.txt from the run: entries still reported keep
// their verdict and reason, entries no longer reported are dropped, and new
// diagnostics are added as untriaged, which fails the gate until someone
// triages them. Only the sets that ran are touched.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/guardvet/guardvet/internal/tools/guardvet-corpus/internal/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardvet-corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	guardvet := fs.String("guardvet", "", "the guardvet binary to run (required; build it first)")
	dir := fs.String("corpus", "testdata/corpus", "the corpus module: holds sets and expected.txt")
	repo := fs.String("repo", ".", "the repository root, where sets marked repo run")
	only := fs.String("sets", "", "run only these sets (comma-separated)")
	warm := fs.Bool("warm", true, "re-run each set on the result cache its first run filled, and fail the set unless the findings are the same bytes")
	jobs := fs.Int("j", 1, "run this many sets at once (each set's wall time and peak RSS are then taken under the others' load)")
	update := fs.Bool("update", false, "rewrite expected.txt from this run: keep the verdicts and reasons of entries still reported, drop the others, add new ones as untriaged")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return corpus.ExitOK
		}
		return corpus.ExitError
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "guardvet-corpus: "+format+"\n", a...)
		return corpus.ExitError
	}
	if *guardvet == "" || fs.NArg() > 0 {
		return fail("usage: guardvet-corpus -guardvet BIN [-corpus DIR] [-repo DIR] [-sets a,b] [-update]")
	}
	bin, err := filepath.Abs(*guardvet)
	if err != nil {
		return fail("%v", err)
	}
	corpusDir, err1 := filepath.Abs(*dir)
	repoDir, err2 := filepath.Abs(*repo)
	if err1 != nil || err2 != nil {
		return fail("%v %v", err1, err2)
	}
	expectedFile := filepath.Join(corpusDir, "expected.txt")
	sets, order, x, err := load(corpusDir, *update)
	if err != nil {
		return fail("%v", err)
	}
	selected, err := corpus.Select(sets, *only)
	if err != nil {
		return fail("%v", err)
	}

	r := &corpus.Runner{Guardvet: bin, Corpus: corpusDir, Repo: repoDir, Warm: *warm}
	fmt.Fprintln(stdout, corpus.Header())
	results := runSets(r, selected, x.Entries, *jobs, func(res *corpus.Result) { fmt.Fprintln(stdout, res.Row()) })
	failed := false
	for _, res := range results {
		failed = failed || res.Run.Err != nil
	}

	if *update {
		if failed {
			corpus.Details(stdout, results, "expected.txt")
			return fail("not updating %s: some sets failed", expectedFile)
		}
		ran := map[string]corpus.Comparison{}
		for _, res := range results {
			ran[res.Run.Set.Name] = res.Cmp
		}
		corpus.Update(x, ran)
		var buf bytes.Buffer
		if err := x.Write(&buf, order); err != nil {
			return fail("%v", err)
		}
		if err := os.WriteFile(expectedFile, buf.Bytes(), 0o644); err != nil {
			return fail("%v", err)
		}
		n := len(corpus.Pending(x.Entries))
		fmt.Fprintf(stdout, "\nwrote %s: %d entries, %d not triaged\n", expectedFile, len(x.Entries), n)
		return corpus.ExitOK
	}
	return corpus.Details(stdout, results, "expected.txt")
}

// load reads the corpus's sets and its expected findings, which may be
// missing only when the run is to write them, and checks that every
// expected finding names a set. order is the sets' names as listed.
func load(corpusDir string, update bool) (sets []corpus.Set, order []string, x *corpus.Expected, err error) {
	setsFile, expectedFile := filepath.Join(corpusDir, "sets"), filepath.Join(corpusDir, "expected.txt")
	sf, err := os.Open(setsFile)
	if err != nil {
		return nil, nil, nil, err
	}
	sets, err = corpus.ParseSets(sf)
	sf.Close()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %v", setsFile, err)
	}
	known := map[string]bool{}
	for _, s := range sets {
		known[s.Name] = true
		order = append(order, s.Name)
	}
	x = &corpus.Expected{}
	if data, err := os.ReadFile(expectedFile); err == nil {
		if x, err = corpus.ParseExpected(bytes.NewReader(data)); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %v", expectedFile, err)
		}
	} else if !os.IsNotExist(err) || !update {
		return nil, nil, nil, err
	}
	for _, e := range x.Entries {
		if !known[e.Set] {
			return nil, nil, nil, fmt.Errorf("%s line %d: no set named %q in %s", expectedFile, e.Line, e.Set, setsFile)
		}
	}
	return sets, order, x, nil
}

// runSets runs the sets, jobs of them at once, in their order, and
// checks each against the expected entries. row is called with each
// result in the sets' order, as soon as it and those before it are done,
// so the table reads the same whatever the jobs.
func runSets(r *corpus.Runner, sets []corpus.Set, entries []*corpus.Entry, jobs int, row func(*corpus.Result)) []*corpus.Result {
	results := make([]*corpus.Result, len(sets))
	done := make([]chan struct{}, len(sets))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	go func() {
		for i := range sets {
			next <- i
		}
		close(next)
	}()
	for range max(jobs, 1) {
		go func() {
			for i := range next {
				results[i] = corpus.Check(r.Run(sets[i]), entries)
				close(done[i])
			}
		}()
	}
	for i := range sets {
		<-done[i]
		row(results[i])
	}
	return results
}
