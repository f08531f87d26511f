// Package baddirectives holds malformed directives; each is reported at its
// own position and none crashes the checker.
package baddirectives

import "sync"

type T struct {
	mu    sync.Mutex
	notMu int
	a     int //guard:by mu // want a:`guard\(by mu\)`
	b     int //guard:bye mu // want `unknown directive //guard:bye; did you mean //guard:by\?`
	c     int //guard:by nosuch // want `//guard:by nosuch: no field nosuch in this struct and no package-level variable nosuch`
	d     int //guard:by notMu // want `//guard:by notMu: not a lock: type int has no Lock and Unlock methods`
	e     int //guard:by // want `//guard:by needs a lock path, as in //guard:by mu`
	f     int //guard:by mu notMu // want `//guard:by takes one lock path; write one //guard:by line per lock`
	g     int //guard:only get nosuch // want g:`guard\(only get\)` `//guard:only nosuch: no method nosuch on T and no package function nosuch`
	h     int //guard:holds mu // want `//guard:holds applies to functions, not to a field or variable; move it`
	i     int // guard:by mu // want `malformed directive: no space is allowed after // in a directive; write //guard:by mu`
	j     int //guard:atomic now // want `//guard:atomic takes no arguments; remove now`
	k     int //gaurd:by mu // want `misspelled directive prefix: guardvet reads //guard:, and this comment would be ignored; write //guard:by mu`
	l     int //Guard:by mu // want `misspelled directive prefix: .*; write //guard:by mu`
	m     int //guard:by	mu // want m:`guard\(by mu\)`
	n     int //gard:nothing here, and no directive
	p     int //guard:atomic because the request path bumps it and the metrics exporter reads it every second // want `^//guard:atomic takes no arguments; remove because the request path bumps it and the metrics exporter…$`
	q     int //guard:by theLockThatACodeGeneratorNamedAfterEveryTypeAndFieldOnTheWayToIt // want `^//guard:by theLockThatACodeGeneratorNamedAfterEveryTypeAndFieldOnTheWa…: no field theLockThatACodeGeneratorNamedAfterEveryTypeAndFieldOnTheWa… in this struct`
	o     int //nolint:unused
}

func (t *T) get() int { return t.g }

//guard:by mu // want `//guard:by applies to struct fields and package-level variables, not to a function; move it`
func (t *T) wrongKind() {}

//guard:holds t.nosuch // want `//guard:holds t.nosuch: type \*T has no field nosuch`
func (t *T) badPath() {}

//guard:holds x.mu // want `//guard:holds x.mu: it must start at the receiver, a parameter, a named result or a package-level variable`
func (t *T) badRoot() {}

//guard:ignore // want `//guard:ignore needs a reason`
func (t *T) noReason() {}

//guard:holdz t.mu // want `unknown directive //guard:holdz; did you mean //guard:holds\?`
func (t *T) typo() {}

//guard:by mu // want `//guard:by applies to struct fields and package-level variables, not to a type; move it`
type U struct{}

var (
	gmu sync.Mutex
	gv  int //guard:by gmu // want gv:`guard\(by gmu\)`
	gw  int //guard:by t // want `//guard:by t: no package-level variable t`
)

func body() {
	//guard:by gmu // want `misplaced directive //guard:by: it applies to struct fields and package-level variables`
	gmu.Lock()
	gv++
	gmu.Unlock()
}

// Counts is where //guard:refcount goes wrong.
type Counts struct {
	mu     sync.Mutex
	locks  map[string]*sync.Mutex //guard:refcount nosuch // want `//guard:refcount nosuch: no field nosuch in this struct; name the map that counts each entry's users`
	byInt  map[int]*sync.Mutex    //guard:refcount refs // want `//guard:refcount refs: refs must be a map from the same key type as byInt to an integer count`
	names  map[string]string      //guard:refcount names2 // want `//guard:refcount names2: names2 must be a map from the same key type as names to an integer count`
	n      int                    //guard:refcount refs // want `//guard:refcount refs: the directive goes on a map field whose entries are counted, and n is not one`
	two    map[string]int         //guard:refcount refs users // want `//guard:refcount takes one field name, as in //guard:refcount refs`
	refs   map[string]int
	names2 map[string]bool
	ok     map[string]*sync.Mutex //guard:refcount refs // want ok:`guard\(refcount refs\)`
}

var counted map[string]int //guard:refcount counted // want `//guard:refcount counted: the directive goes on a struct field \(a map whose entries are counted\), not on a package-level variable`
