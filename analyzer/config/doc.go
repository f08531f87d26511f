/*
Package config defines the analyzer that owns guardvet's options read by
more than one analyzer.

# Analyzer config

config: guardvet's shared options (reports nothing)

The engine (directives, lockstate) and the rules read these options from
this analyzer's result, through Requires, never from package variables of
one another:

  - -config.infer: guard inference (guardvet -infer). The engine analyses
    packages without directives, records the accesses inference weighs,
    and reads the conventions below; the guardinfer rule reports.
  - -config.infer.suggest: inference reports the directives to add, not
    the accesses (guardvet -suggest). Implies -config.infer.
  - -config.infer.score (5) and -config.infer.ratio (0.9): a field's guard
    is inferred when its evidence scores at least score points (a point
    per write made with the lock held and per function holding it, up to
    3 of each) and a ratio of its accesses hold the lock.
  - -config.infer.locked: under inference, a method named ...Locked holds
    its receiver's lock (default true).
  - -config.infer.prose: under inference, a comment "guarded by mu" is a
    guard to check (default true).
  - -config.infer.explain: under inference, each finding ends with the
    evidence behind it.
  - -config.unannotated: lockorder infers lock order, and finds
    self-deadlocks, in packages without directives too.
  - -config.allrules: in packages with no directives of their own that
    import annotated ones, every rule runs, not only the checks of the
    imported contracts.
  - -config.shared: the shared rule runs (guardvet -shared runs it alone).
  - -config.strict: checkthenact and escape also report the findings they
    leave out by default because nothing can be lost there (guardvet
    -strict): a check-then-act whose act re-checks the field in a callee,
    or cannot lose an update (an idempotent or one-way write), and a
    copy-on-write or nil guarded slice or map handed out.
  - -config.summaries: packages without directives compute the lock
    summaries annotated importers read (default true; the standalone
    driver turns it off when nothing it loaded has a directive).
  - -config.readers, -config.readers.deps and -config.roots (the import
    paths of the packages a run checks): internal, set by the standalone
    driver on its run's copy (lockstate.ReleaseEarly), so that the engine
    drops each package's per-function records when the last rule reading
    them is done.

The flags are set at start-up only. Each run of the analyzer returns a
Config built from them (FromFlags), not changed afterwards; a driver
that needs other options for a run binds the analyzers to a changed copy
(Config.With, Bind) instead of setting the flags.
*/
package config

import _ "embed" // for docFile

// docFile is this file: the Analyzer's Doc is a section of its comment
// (docs.Extract).
//
//go:embed doc.go
var docFile string
