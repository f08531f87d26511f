# guardvet's developer entry points. README explains each target.
GO      ?= go
BIN     := $(CURDIR)/bin
GUARDVET := $(BIN)/guardvet

.PHONY: all build demo test lint fmtcheck vet selfcheck gotest fuzzshort fuzz std corpus looks bench checklocks-bench infer-precision golangci clean

all: build

build:
	$(GO) build -o $(GUARDVET) ./cmd/guardvet

# demo: the buggy twins' findings, then sessionref, the fixed PTY session and
# this module checked clean.
demo: build
	@echo "== guardvet on sessionref's buggy twin (findings expected) =="
	@$(GUARDVET) ./testdata/src/sessiontwin || true
	@echo
	@echo "== guardvet on the pre-fix PTY session (findings expected) =="
	@$(GUARDVET) ./testdata/src/ptysession/before || true
	@echo
	@echo "== guardvet on sessionref, the fixed PTY session and this module (clean expected) =="
	$(GUARDVET) ./sessionref ./testdata/src/ptysession/after ./...
	@echo "clean: no findings"

# test: what CI runs. Formatting, go vet, guardvet on itself, the tests
# (the fuzz targets' seeds included; see gotest for the race detector),
# then a short run of the directive grammars' fuzz targets.
test: fmtcheck vet selfcheck gotest fuzzshort

# lint: staticcheck on guardvet itself, the test-only build tags included.
# It is pinned in a module of its own (internal/tools/lint/go.mod), so the
# product's go.mod stays small; .ci/run runs it, and it must print nothing.
lint:
	$(GO) tool -modfile=internal/tools/lint/go.mod staticcheck -tags integration,mutation ./...

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

selfcheck: build
	$(GUARDVET) ./...

# gotest: every package's tests. The race detector runs on all of them but
# the rules' own packages (RACEFREE): analyzer/suite runs every rule on every
# fixture, concurrently as a real run does, under the race detector, so a
# rule's fixture tests under it again would only triple their time.
MODULE   := github.com/guardvet/guardvet
RACEFREE := $(addprefix $(MODULE)/analyzer/,checkthenact directives escape guardedby guardinfer lockorder lockstate noblock shared unusedignore)
gotest:
	$(GO) test -race $(filter-out $(RACEFREE),$(shell $(GO) list ./...))
	$(GO) test $(RACEFREE)

# fuzzshort: the directive grammars' fuzz targets, briefly: a count of
# inputs rather than a duration, since a timed run can end in the fuzzing
# engine's "context deadline exceeded" on a loaded machine while a worker
# is still busy. fuzz: every fuzz target for FUZZTIME each (the engine's,
# on generated programs, is slow: each input is a package loaded and
# analysed).
FUZZTIME ?= 60s
fuzzshort:
	$(GO) test -run '^$$' -fuzz '^FuzzGuardDirective$$' -fuzztime 30000x ./analyzer/directives
	$(GO) test -run '^$$' -fuzz '^FuzzChecklocksAnnotation$$' -fuzztime 30000x ./analyzer/directives

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzGuardDirective$$' -fuzztime $(FUZZTIME) ./analyzer/directives
	$(GO) test -run '^$$' -fuzz '^FuzzChecklocksAnnotation$$' -fuzztime $(FUZZTIME) ./analyzer/directives
	$(GO) test -run '^$$' -fuzz '^FuzzEngineOnGeneratedCode$$' -fuzztime $(FUZZTIME) ./analyzer/lockstate

# std: guardvet over the whole standard library, tests included. It must not
# panic and, since std has no directives, must report nothing.
std: build
	$(GUARDVET) std

# corpus: the precision gate. guardvet on pinned real code (the sets in
# testdata/corpus/sets), compared with the triaged list of expected
# diagnostics, testdata/corpus/expected.txt. Fails on anything unexpected,
# missing or untriaged. CORPUSFLAGS=-update rewrites the list,
# CORPUSFLAGS='-sets tcpip,std' runs some sets. CORPUSJOBS sets run at
# once: a run of guardvet keeps about 1.7 of two cores busy, and two at a
# time took 13% off the gate's wall time on such a machine (a set's wall
# time in the table is then taken under the other's load; make bench is
# the measure of speed).
CORPUSFLAGS ?=
CORPUSJOBS ?= 2
corpus: build
	$(GO) build -o $(BIN)/guardvet-corpus ./internal/tools/guardvet-corpus
	$(BIN)/guardvet-corpus -j $(CORPUSJOBS) -guardvet $(GUARDVET) $(CORPUSFLAGS)

# looks: the modules of the first looks (testdata/corpus/firstlook.txt)
# with a true or benign finding, each re-run with LOOKSBASE (a build of
# an earlier commit) and with this tree's guardvet; fails if a position
# triaged true or benign at its first look is no longer reported, and
# lists what each module gains and loses. It fetches every module through
# the Go module proxy (into LOOKSWORK, kept between runs), so it is not
# part of test. LOOKSFLAGS='-sets pulsar' runs some looks; -all runs
# every module a look ran.
LOOKSBASE ?=
LOOKSWORK ?= $(or $(TMPDIR),/tmp)/guardvet-looks
LOOKSFLAGS ?=
looks: build
	@test -n "$(LOOKSBASE)" || { echo "make looks: set LOOKSBASE to a guardvet build of the commit to compare with"; exit 2; }
	$(GO) build -o $(BIN)/guardvet-looks ./internal/tools/guardvet-looks
	$(BIN)/guardvet-looks -base $(LOOKSBASE) -new $(GUARDVET) -work $(LOOKSWORK) $(LOOKSFLAGS)

# bench: whole-process wall time and peak memory of guardvet against a
# type-check-only floor and go vet, medians over several runs.
bench: build
	$(GO) build -o $(BIN)/typecheckfloor ./internal/tools/typecheckfloor
	$(GO) run ./internal/tools/guardvet-bench -guardvet $(GUARDVET) -floor $(BIN)/typecheckfloor

clean:
	rm -rf $(BIN)

# checklocks-bench: guardvet and gVisor's checklocks side by side on the
# same packages (wall time and what each reports). Installs checklocks from
# the module proxy into bin/.
checklocks-bench:
	.ci/checklocks-bench

# infer-precision: guard inference over std and golang.org/x/tools: findings,
# wall time, peak memory, and a seeded sample for triage (README).
infer-precision:
	.ci/infer-precision

# golangci: a golangci-lint v2.15.0 with guardvet's module plugin, built
# from this checkout into bin/custom-gcl, through the Go module proxy only
# (docs/golangci-lint.md; integration/golangci_test.go uses the same script).
golangci:
	.ci/golangci -o $(BIN)/custom-gcl
