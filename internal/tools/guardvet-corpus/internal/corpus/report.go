package corpus

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Exit codes of the gate.
const (
	ExitOK    = 0 // every diagnostic expected, every expected one reported, all triaged
	ExitFail  = 1 // unexpected or missing diagnostics, or entries not triaged
	ExitError = 2 // a set could not be run or trusted, or a file is malformed
)

// Result is one set's run, compared with its expected entries.
type Result struct {
	Run       *Run
	Entries   []*Entry // the set's expected entries
	Cmp       Comparison
	Untriaged []*Entry
}

// Check compares a run with the expected entries of its set.
func Check(run *Run, all []*Entry) *Result {
	res := &Result{Run: run, Entries: EntriesOf(all, run.Set.Name)}
	res.Untriaged = Pending(res.Entries)
	if run.Err == nil {
		res.Cmp = Compare(run.Diags, res.Entries)
	}
	return res
}

// Header is the table header Row matches.
func Header() string {
	return fmt.Sprintf("%-12s %6s %9s %11s %8s %10s %8s %9s %8s %18s %8s", "set", "found", "expected", "unexpected", "missing", "untriaged", "wall", "peak RSS", "warm", "partial", "set")
}

// Row is one set's line of the table.
func (r *Result) Row() string {
	if r.Run.Err != nil {
		return fmt.Sprintf("%-12s %6s %9s %11s %8s %10d %7.1fs %9s", r.Run.Set.Name, "error", "-", "-", "-", len(r.Untriaged), r.Run.Wall.Seconds(), mb(r.Run.RSS))
	}
	partial := "-"
	if r.Run.Partial != "" {
		partial = fmt.Sprintf("%s %5.1fs", r.Run.Partial, r.Run.PartialWall.Seconds())
	}
	return fmt.Sprintf("%-12s %6d %9d %11d %8d %10d %7.1fs %9s %8s %18s %7.1fs", r.Run.Set.Name, len(r.Run.Diags), len(r.Cmp.Matched), len(r.Cmp.Unexpected), len(r.Cmp.Missing), len(r.Untriaged), r.Run.Wall.Seconds(), mb(r.Run.RSS), warmWall(r.Run.WarmWall), partial, r.Run.Total.Seconds())
}

func warmWall(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func mb(b int64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%d MB", b>>20)
}

// Details prints what fails the gate, set by set, and a verdict line, and
// returns the exit code. expected names the expected file in messages.
func Details(w io.Writer, results []*Result, expected string) int {
	code := ExitOK
	var nUnexp, nMissing, nUntriaged, nErr, nTrue, nBenign, nFalse, nFound int
	for _, r := range results {
		name := r.Run.Set.Name
		if r.Run.Err != nil {
			nErr++
			fmt.Fprintf(w, "\n%s: ERROR: %v\n", name, r.Run.Err)
			continue
		}
		nFound += len(r.Run.Diags)
		if u := r.Cmp.Unexpected; len(u) > 0 {
			nUnexp += len(u)
			fmt.Fprintf(w, "\n%s: %d unexpected (reported, not in %s):\n", name, len(u), expected)
			for _, d := range u {
				fmt.Fprintf(w, "  %s\t%s\t%s\n", d.Pos, d.Rule, d.Message)
			}
		}
		if m := r.Cmp.Missing; len(m) > 0 {
			nMissing += len(m)
			fmt.Fprintf(w, "\n%s: %d missing (in %s, no longer reported):\n", name, len(m), expected)
			for _, e := range m {
				fmt.Fprintf(w, "  %s\t%s\t%s (line %d: %s)\n", e.Pos, e.Rule, e.Message, e.Line, e.Verdict)
			}
		}
	}
	var other []*Entry // verdicts that are neither triaged nor untriaged: typos
	for _, r := range results {
		for _, e := range r.Entries {
			switch e.Verdict {
			case True:
				nTrue++
			case Benign:
				nBenign++
			case False:
				nFalse++
			case Untriaged:
				nUntriaged++
			default:
				other = append(other, e)
			}
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "\n%d entries with a verdict other than %s, %s, %s or %s:\n", len(other), True, Benign, False, Untriaged)
		for _, e := range other {
			fmt.Fprintf(w, "  %s line %d: %q\n", expected, e.Line, e.Verdict)
		}
	}
	if nUntriaged > 0 {
		fmt.Fprintf(w, "\n%d entries are %s: read the code at each position, then set the verdict (%s or %s; %s only for a rule that is off by default) and replace the reason with one line saying why\n", nUntriaged, Untriaged, True, Benign, False)
	}
	var fails []string
	if nErr > 0 {
		fails = append(fails, fmt.Sprintf("%d sets in error", nErr))
		code = ExitError
	}
	for _, f := range []struct {
		n    int
		what string
	}{{nUnexp, "unexpected"}, {nMissing, "missing"}, {nUntriaged, Untriaged}, {len(other), "bad verdicts"}} {
		if f.n > 0 {
			fails = append(fails, fmt.Sprintf("%d %s", f.n, f.what))
			if code == ExitOK {
				code = ExitFail
			}
		}
	}
	if code == ExitOK {
		fmt.Fprintf(w, "\ncorpus gate: ok: %d diagnostics, all expected (%d true, %d benign, %d known false positives of rules that are off by default)\n", nFound, nTrue, nBenign, nFalse)
	} else {
		fmt.Fprintf(w, "\ncorpus gate: FAIL: %s\n", strings.Join(fails, ", "))
	}
	return code
}
