package vetproto

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/guardvet/guardvet/internal/fold"
)

// Under go vet, the go command runs the vet tool with -json and prints the
// JSON it writes as text itself: since Go 1.26, plain go vet as well as
// go vet -json. The JSON maps each package to each analyzer that reported
// to its list of diagnostics, and the go command prints a package's
// analyzers in map order, a different one on every run, replays of its
// cache included. So that go vet prints the same bytes on every run,
// guardvet files all of a package's diagnostics under the one name
// vetJSONKey, sorted as the standalone output is, each keeping its rule
// in its category. unitchecker writes the JSON and exits, so guardvet
// runs it in a child process (the same binary, on a copy of go vet's
// *.cfg that sends the JSON to a temporary file) and rewrites what it
// wrote.

// vetJSONKey is the one analyzer name a package's diagnostics are filed
// under in the JSON guardvet gives go vet.
const vetJSONKey = "guardvet"

// vetChildMark is the field of the copy of the *.cfg that tells the child
// to run unitchecker itself.
const vetChildMark = "GuardvetChild"

// RunSorted runs guardvet under go vet as a child process when go vet
// asks for JSON diagnostics (-json, which plain go vet passes too) of a
// package it reports on, and rewrites the child's JSON: all diagnostics of
// the package under vetJSONKey, sorted by position, then rule, then
// message. It returns the exit code, and false when it did not run (not
// JSON, -fix, a dependency analysed for its facts only, or the child
// itself), in which case unitchecker runs in this process.
func RunSorted(args []string, stderr io.Writer) (code int, ran bool) {
	// ruleNamed reads any boolean flag: -json, -json=true, --json.
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") || !ruleNamed(args, "json") || ruleNamed(args, "fix") {
		return 0, false
	}
	cfgFile := args[len(args)-1]
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return 0, false // unitchecker reports it
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal(data, &cfg) != nil {
		return 0, false
	}
	var vetxOnly bool
	var stdout string
	_ = json.Unmarshal(cfg["VetxOnly"], &vetxOnly) // absent: false
	_ = json.Unmarshal(cfg["Stdout"], &stdout)     // absent: the tool's stdout
	if _, child := cfg[vetChildMark]; child || vetxOnly {
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	dir, err := os.MkdirTemp("", "guardvet-vet")
	if err != nil {
		return 0, false
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "vet.stdout")
	cfg["Stdout"], _ = json.Marshal(out) // a string: cannot fail
	cfg[vetChildMark] = json.RawMessage("true")
	childCfg := filepath.Join(dir, "vet.cfg")
	data, _ = json.Marshal(cfg) // raw JSON values: cannot fail
	if os.WriteFile(childCfg, data, 0o644) != nil {
		return 0, false
	}
	cmd := exec.Command(exe, append(slices.Clone(args[:len(args)-1]), childCfg)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return 0, false // not started: run in this process
		}
		code = max(exit.ExitCode(), 1) // -1: killed by a signal
	}
	diags, err := os.ReadFile(out)
	if err != nil {
		return code, true // the child failed before writing any (and said why)
	}
	if sorted, err := sortVetJSON(diags); err == nil {
		diags = sorted
	}
	if stdout == "" {
		_, err = os.Stdout.Write(diags)
	} else {
		err = os.WriteFile(stdout, diags, 0o666)
	}
	if err != nil {
		fmt.Fprintf(stderr, "guardvet: %v\n", err)
		return 1, true
	}
	return code, true
}

// sortVetJSON rewrites unitchecker's JSON (package ID → analyzer → list of
// diagnostics, or {"error": ...}) with each package's diagnostics under
// vetJSONKey, in a stable order. If an analyzer failed, the package's
// entry is the failures instead, one line per analyzer, by name: the go
// command prints the first entry that is an error and nothing after it,
// so a list next to it would print or not by map order.
func sortVetJSON(data []byte) ([]byte, error) {
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, err
	}
	for id, byAnalyzer := range tree {
		merged, err := mergeVetDiagnostics(byAnalyzer)
		if err != nil {
			return nil, err
		}
		tree[id] = map[string]json.RawMessage{vetJSONKey: merged}
	}
	out, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// vetDiagnostic is one diagnostic of unitchecker's JSON, kept as written,
// with what it is sorted by.
type vetDiagnostic struct {
	raw       json.RawMessage
	analyzer  string
	file      string
	line, col int
	message   string
}

// mergeVetDiagnostics merges one package's entries (see sortVetJSON).
func mergeVetDiagnostics(byAnalyzer map[string]json.RawMessage) (json.RawMessage, error) {
	var diags []vetDiagnostic
	var failures []string
	for name, entry := range byAnalyzer {
		var list []json.RawMessage
		if err := json.Unmarshal(entry, &list); err != nil {
			var failed struct {
				Err string `json:"error"`
			}
			if err := json.Unmarshal(entry, &failed); err != nil {
				return nil, err
			}
			failures = append(failures, name+": "+failed.Err)
			continue
		}
		for _, raw := range list {
			raw, err := foldVetRelated(raw)
			if err != nil {
				return nil, err
			}
			var d struct{ Posn, Message string }
			if err := json.Unmarshal(raw, &d); err != nil {
				return nil, err
			}
			vd := vetDiagnostic{raw: raw, analyzer: name, file: d.Posn, message: d.Message}
			vd.file, vd.line, vd.col = splitPosn(d.Posn)
			diags = append(diags, vd)
		}
	}
	if len(failures) > 0 {
		sort.Strings(failures)
		return json.Marshal(map[string]string{"error": strings.Join(failures, "\n")})
	}
	sort.Slice(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			cmp.Compare(a.analyzer, b.analyzer), cmp.Compare(a.message, b.message), bytes.Compare(a.raw, b.raw)) < 0
	})
	list := make([]json.RawMessage, len(diags))
	for i, d := range diags {
		list[i] = d.raw
	}
	return json.Marshal(list)
}

// vetJSONDiagnostic is a diagnostic of unitchecker's JSON, its fields in
// the order unitchecker writes them (x/tools' driverutil.JSONDiagnostic).
type vetJSONDiagnostic struct {
	Category       string          `json:"category,omitempty"`
	Posn           string          `json:"posn"`
	End            string          `json:"end"`
	Message        string          `json:"message"`
	SuggestedFixes json.RawMessage `json:"suggested_fixes,omitempty"`
	Related        []struct {
		Posn, End, Message string
	} `json:"related,omitempty"`
}

// foldVetRelated writes a diagnostic's related positions into its message
// (internal/fold), as the golangci-lint plugin does: the go command prints
// each related position as a line of its own, "file:line:col: \ttext",
// which reads as a finding of its own.
func foldVetRelated(raw json.RawMessage) (json.RawMessage, error) {
	var d vetJSONDiagnostic
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	if len(d.Related) == 0 {
		return raw, nil
	}
	related := make([]fold.Related, len(d.Related))
	for i, r := range d.Related {
		file, line, col := splitPosn(r.Posn)
		related[i] = fold.Related{File: file, Line: line, Col: col, Message: r.Message}
	}
	d.Message = fold.Message(d.Message, related)
	d.Related = nil
	return json.Marshal(d)
}

// splitPosn splits "file:line:col" (a token.Position); anything else is a
// file name at line and column 0.
func splitPosn(s string) (file string, line, col int) {
	rest, c, ok := cutLastColon(s)
	if !ok {
		return s, 0, 0
	}
	file, l, ok := cutLastColon(rest)
	if !ok {
		return s, 0, 0
	}
	return file, l, c
}

// cutLastColon splits s at its last colon, where a number must follow.
func cutLastColon(s string) (before string, n int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err == nil
}
