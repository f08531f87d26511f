/*
Package unusedignore defines the rule that reports //guard:ignore
directives that suppress nothing.

# Analyzer unusedignore

unusedignore: report //guard:ignore directives that suppress nothing

An ignore that no longer hides any diagnostic is stale: the code it excused
was fixed or moved, and leaving it would hide the next real finding on that
line. The suggested fix deletes the directive.
*/
package unusedignore

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
