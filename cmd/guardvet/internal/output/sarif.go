package output

import (
	"encoding/json"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/baseline"
)

// The subset of SARIF 2.1.0 that guardvet writes. Small structs keep the
// output readable; the tests validate it against the schema with go-sarif.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations"`
		Results     []sarifResult     `json:"results"`
	}
	// sarifInvocation says whether the run succeeded: false when a
	// package failed to load or type-check (exit code 2), with each error
	// as a notification, so that an uploaded log of a broken build does
	// not read as a clean scan.
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifText    `json:"shortDescription"`
		FullDescription      sarifText    `json:"fullDescription"`
		HelpURI              string       `json:"helpUri"`
		DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
	}
	sarifDefault struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               int           `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifText    `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description     sarifText             `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifact      `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion `json:"deletedRegion"`
		InsertedContent sarifText   `json:"insertedContent"`
	}
)

const srcRoot = "%SRCROOT%"

// WriteSARIF writes findings as one SARIF 2.1.0 run: one rule per
// diagnostic category (each analyzer's name), helpUri pointing at the
// rule's page in docs/rules, and fingerprints that survive unrelated edits.
// errs are the run's errors (load and type errors, printed to stderr
// too): with any, the invocation is marked unsuccessful and lists them.
func WriteSARIF(w io.Writer, findings []Finding, analyzers []*analysis.Analyzer, version string, errs []string) error {
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "guardvet", Version: version, InformationURI: "https://github.com/guardvet/guardvet"}},
		Invocations: []sarifInvocation{invocation(errs)},
		Results:     []sarifResult{},
	}
	ruleIndex := map[string]int{}
	for _, a := range analyzers {
		if a == config.Analyzer {
			continue // options, not a rule: it reports nothing
		}
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: a.Name, Name: a.Name, HelpURI: a.URL,
			ShortDescription:     sarifText{FirstLine(a.Doc)},
			FullDescription:      sarifText{a.Doc},
			DefaultConfiguration: sarifDefault{Level: "warning"},
		})
	}
	fingerprints := Fingerprints(findings, artifactURI)
	for i, f := range findings {
		rule := f.Analyzer.Name
		endLine, endCol := endOf(f, f.Diag.End)
		r := sarifResult{
			RuleID: rule, RuleIndex: ruleIndex[rule], Level: "warning",
			Message:             sarifText{f.Diag.Message},
			Locations:           []sarifLocation{{PhysicalLocation: physical(f.Posn.Filename, f.Posn.Line, f.Posn.Column, endLine, endCol)}},
			PartialFingerprints: map[string]string{"guardvet/v1": fingerprints[i]},
		}
		for i, rel := range f.Diag.Related {
			p := f.Fset.Position(rel.Pos)
			endLine, endCol := endOf(f, rel.End)
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID: i + 1, PhysicalLocation: physical(p.Filename, p.Line, p.Column, endLine, endCol), Message: &sarifText{rel.Message},
			})
		}
		for _, fix := range f.Diag.SuggestedFixes {
			r.Fixes = append(r.Fixes, toSARIFFix(f, fix))
		}
		run.Results = append(run.Results, r)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// endOf is the line and column (exclusive, as SARIF's endColumn is) of a
// range's end; zero, so that the region is its start alone, when the
// diagnostic has no end.
func endOf(f Finding, end token.Pos) (line, col int) {
	if !end.IsValid() {
		return 0, 0
	}
	p := f.Fset.Position(end)
	return p.Line, p.Column
}

func physical(file string, line, col, endLine, endCol int) sarifPhysical {
	return sarifPhysical{
		ArtifactLocation: sarifArtifact{URI: artifactURI(file), URIBaseID: srcRoot},
		Region:           sarifRegion{StartLine: max(line, 1), StartColumn: col, EndLine: endLine, EndColumn: endCol},
	}
}

func toSARIFFix(f Finding, fix analysis.SuggestedFix) sarifFix {
	byFile := map[string][]sarifReplacement{}
	for _, e := range fix.TextEdits {
		start, end := f.Fset.Position(e.Pos), f.Fset.Position(e.End)
		if !e.End.IsValid() {
			end = start
		}
		byFile[start.Filename] = append(byFile[start.Filename], sarifReplacement{
			DeletedRegion:   sarifRegion{StartLine: start.Line, StartColumn: start.Column, EndLine: end.Line, EndColumn: end.Column},
			InsertedContent: sarifText{string(e.NewText)},
		})
	}
	var files []string
	for file := range byFile {
		files = append(files, file)
	}
	sort.Strings(files)
	out := sarifFix{Description: sarifText{fix.Message}}
	for _, file := range files {
		out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{
			ArtifactLocation: sarifArtifact{URI: artifactURI(file), URIBaseID: srcRoot},
			Replacements:     byFile[file],
		})
	}
	return out
}

// artifactURI is the file relative to the working directory (the checkout
// root in CI), with forward slashes, so paths are the same on every run.
func artifactURI(file string) string {
	return filepath.ToSlash(RelPath(file))
}

// Fingerprints are the findings' fingerprints (baseline.Fingerprint,
// ranked by baseline.Rank), each with its file named as name names it:
// SARIF's partialFingerprints, and the baseline's.
func Fingerprints(findings []Finding, name func(file string) string) []string {
	src := sourceLines{}
	hashes := make([]string, len(findings))
	for i, f := range findings {
		hashes[i] = baseline.Fingerprint(f.Analyzer.Name, name(f.Posn.Filename), f.Diag.Message, src.line(f.Posn.Filename, f.Posn.Line))
	}
	return baseline.Rank(hashes)
}

// sourceLines reads the lines of the files findings are in, each file
// once. A file that cannot be read has no lines: its fingerprints hash an
// empty line, as they would for a finding past its end.
type sourceLines map[string][]string

func (c sourceLines) line(file string, line int) string {
	lines, ok := c[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		c[file] = lines
	}
	if line < 1 || line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

var errorPosition = regexp.MustCompile(`^([^\s:]+(?::\\[^\s:]+)?):(\d+)(?::(\d+))?: (.*)$`)

// invocation is the run's status: successful without errors; else each
// error a notification, located when it starts with a position
// (file:line or file:line:col).
func invocation(errs []string) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: len(errs) == 0}
	for _, e := range errs {
		n := sarifNotification{Level: "error", Message: sarifText{e}}
		if m := errorPosition.FindStringSubmatch(e); m != nil {
			line, _ := strconv.Atoi(m[2]) // digits, as matched
			col, _ := strconv.Atoi(m[3])  // digits or empty (0: no column)
			n.Message = sarifText{m[4]}
			n.Locations = []sarifLocation{{PhysicalLocation: physical(m[1], line, col, 0, 0)}}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	return inv
}
