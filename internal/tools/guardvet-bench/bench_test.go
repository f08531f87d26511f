package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{4}, 4},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5, 5, 1, 9, 5}, 5},
	} {
		in := slices.Clone(tc.in)
		if got := median(in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("median modified its input: %v, was %v", in, tc.in)
		}
	}
}

func TestSetFlag(t *testing.T) {
	var sets setsFlag
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&sets, "set", "")
	err := fs.Parse([]string{
		"-set", "std=net/http, encoding/json,,go/types",
		"-set=mod=./...",
		"-set", "tcpip@testdata/corpus=gvisor.dev/gvisor/pkg/tcpip/...",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := setsFlag{
		{Name: "std", Packages: []string{"net/http", "encoding/json", "go/types"}},
		{Name: "mod", Packages: []string{"./..."}},
		{Name: "tcpip", Dir: "testdata/corpus", Packages: []string{"gvisor.dev/gvisor/pkg/tcpip/..."}},
	}
	if !slices.EqualFunc(sets, want, func(a, b PackageSet) bool {
		return a.Name == b.Name && a.Dir == b.Dir && slices.Equal(a.Packages, b.Packages)
	}) {
		t.Errorf("got %+v, want %+v", sets, want)
	}
	if got, want := sets.String(), "std=net/http,encoding/json,go/types mod=./... tcpip@testdata/corpus=gvisor.dev/gvisor/pkg/tcpip/..."; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}

	for _, bad := range []string{"", "noequals", "=fmt", "x=", "x= , ", "a b=fmt", "std=fmt", "@dir=fmt"} {
		if err := sets.Set(bad); err == nil {
			t.Errorf("Set(%q) succeeded, want an error", bad)
		}
	}
}

func TestCrashScanner(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   string
	}{
		{[]string{"a.go:1:2: something about panic: not a crash\n", "exit status 3\n"}, ""},
		{[]string{"findings\npan", "ic: runtime error: index out of range\n\ngoroutine 1 [running]:\n"}, "panic: runtime error: index out of range"},
		{[]string{"fatal error: concurrent map writes"}, "fatal error: concurrent map writes"},
		{[]string{"goroutine 7 [running]:\n"}, "goroutine 7 [running]:"},
	} {
		s := &crashScanner{}
		for _, w := range tc.writes {
			if _, err := s.Write([]byte(w)); err != nil {
				t.Fatal(err)
			}
		}
		s.flush()
		if s.crashed != tc.want {
			t.Errorf("%q: crashed = %q, want %q", tc.writes, s.crashed, tc.want)
		}
	}

	s := &crashScanner{}
	big := strings.Repeat("x", 3*tailBytes) + "END"
	s.Write([]byte(big))
	if got := s.tail(); len(got) != tailBytes || !strings.HasSuffix(got, "END") {
		t.Errorf("tail has length %d and suffix %q, want length %d ending in END", len(got), got[len(got)-3:], tailBytes)
	}
}

func testResults() Results {
	cmds := []Command{
		{Name: "guardvet", Path: "/bin/gv", Packages: []string{"fmt"}, ExpectedExit: []int{0, 3}},
		{Name: "typecheckfloor", Path: "/bin/floor", Args: []string{"-facts=true"}, Packages: []string{"fmt"}, ExpectedExit: []int{0, 3}},
		{Name: "go vet", Path: "/bin/go", Args: []string{"vet"}, Nonce: func() []string { return []string{"-printf.funcs=n"} },
			Packages: []string{"fmt"}, ExpectedExit: []int{0, 1}},
	}
	samples := [][]Sample{
		{{2.2, 3.3, 220, 3}, {2.0, 3.0, 200, 3}, {2.4, 3.1, 210, 0}},
		{{2.0, 3.0, 200, 0}, {1.9, 2.9, 190, 0}, {2.1, 3.2, 205, 0}},
		{{9.0, 12.0, 100, 1}, {8.0, 11.0, 90, 2}, {10.0, 15.0, 110, 1}},
	}
	return Results{
		GoVersion: "go1.26.8", NumCPU: 2, Runs: 3, WarmupRuns: 1, FloorFacts: true,
		RSSMeaning: "peak RSS = test", CacheNotice: "test caches",
		Sets: []SetResult{summarize(PackageSet{Name: "tiny", Packages: []string{"fmt"}}, cmds, samples)},
	}
}

func TestSummarize(t *testing.T) {
	s := testResults().Sets[0]
	gv, floor, vet := s.Commands[0], s.Commands[1], s.Commands[2]
	if gv.MedianWall != 2.2 || gv.MinWall != 2.0 || gv.MaxWall != 2.4 || gv.MedianRSSMiB != 210 {
		t.Errorf("guardvet summary = %+v", gv)
	}
	if floor.WallRatio != 1 || floor.RSSRatio != 1 {
		t.Errorf("floor ratios = %v, %v, want 1, 1", floor.WallRatio, floor.RSSRatio)
	}
	if !slices.Equal(gv.ExitCodes, []int{0, 3}) || !slices.Equal(vet.ExitCodes, []int{1, 2}) {
		t.Errorf("exit codes = %v, %v", gv.ExitCodes, vet.ExitCodes)
	}
	if vet.CommandLine != "/bin/go vet -printf.funcs=<nonce> fmt" {
		t.Errorf("vet command line = %q", vet.CommandLine)
	}
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "go vet exited 2") {
		t.Errorf("notes = %q, want one about go vet exiting 2", s.Notes)
	}
}

func TestFormatText(t *testing.T) {
	got := formatText(testResults())
	want := `guardvet-bench: go1.26.8, 2 CPUs, 3 timed runs per command, interleaved round-robin after 1 untimed warm-up round
floor: typecheckfloor -facts=true
wall: whole process; peak RSS = test; CPU = user+system time of the command and its waited-for descendants (less sensitive than wall to other load)
caches: test caches

== tiny: fmt
command          median wall       min       max  median RSS  wall/floor  RSS/floor  median CPU  CPU/floor  exit
guardvet              2.20 s    2.00 s    2.40 s   210.0 MiB       1.100      1.050      3.10 s      1.033  0,3
typecheckfloor        2.00 s    1.90 s    2.10 s   200.0 MiB       1.000      1.000      3.00 s      1.000  0
go vet                9.00 s    8.00 s   10.00 s   100.0 MiB       4.500      0.500     12.00 s      4.000  1,2
runs, in order (wall s / peak RSS MiB / CPU s):
  guardvet         2.20/220/3.30  2.00/200/3.00  2.40/210/3.10
  typecheckfloor   2.00/200/3.00  1.90/190/2.90  2.10/205/3.20
  go vet           9.00/100/12.00  8.00/90/11.00  10.00/110/15.00
note: go vet exited 2 (expected one of [0 1]; if that is a load or build error, those runs are not comparable); check its output by running: /bin/go vet -printf.funcs=<nonce> fmt
guardvet overhead over floor on tiny: +10.0% wall, +5.0% RSS (+3.3% CPU)
`
	if got != want {
		t.Errorf("formatText:\n%s\nwant:\n%s", got, want)
	}
}

// TestInferRatio: with guardvet -infer among the commands, the set's
// result gives its medians over the default run's.
func TestInferRatio(t *testing.T) {
	cmds := []Command{{Name: "guardvet"}, {Name: "typecheckfloor"}, {Name: "guardvet -infer"}}
	samples := [][]Sample{
		{{WallSeconds: 2, PeakRSSMiB: 100, CPUSeconds: 4}, {WallSeconds: 4, PeakRSSMiB: 100, CPUSeconds: 4}, {WallSeconds: 3, PeakRSSMiB: 100, CPUSeconds: 4}},
		{{WallSeconds: 1, PeakRSSMiB: 50, CPUSeconds: 2}},
		{{WallSeconds: 6, PeakRSSMiB: 120, CPUSeconds: 10}, {WallSeconds: 5, PeakRSSMiB: 130, CPUSeconds: 8}, {WallSeconds: 9, PeakRSSMiB: 110, CPUSeconds: 12}},
	}
	res := summarize(PackageSet{Name: "s"}, cmds, samples)
	if res.Infer == nil {
		t.Fatal("no -infer ratio")
	}
	if res.Infer.Wall != 2 || res.Infer.RSS != 1.2 || res.Infer.CPU != 2.5 {
		t.Errorf("-infer over guardvet = %+v, want wall 2 (6/3), RSS 1.2 (120/100), CPU 2.5 (10/4)", *res.Infer)
	}
	if !strings.Contains(formatText(Results{Sets: []SetResult{res}}), "guardvet -infer over guardvet on s: 2.00x wall, 1.20x RSS (2.50x CPU)") {
		t.Errorf("text output lacks the -infer line:\n%s", formatText(Results{Sets: []SetResult{res}}))
	}
	without := summarize(PackageSet{Name: "s"}, cmds[:2], samples[:2])
	if without.Infer != nil {
		t.Errorf("a set without guardvet -infer has an -infer ratio: %+v", *without.Infer)
	}
}
