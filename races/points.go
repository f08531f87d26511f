package races

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// points is a points-to analysis of the program's own code, in the style
// of Andersen's (inclusion-based, flow- and context-insensitive, field-
// sensitive): which allocation sites each pointer value can point into.
// It tells two Sessions apart when they come from different allocations,
// so that a value each call makes for itself is not taken for one shared
// by every call. Values that come from code without bodies (dependencies)
// point nowhere: the analysis says "unknown" for them, and an access
// through an unknown pointer may touch any object of its type.
type points struct {
	nodes   map[ssa.Value]int
	sets    []map[int]bool // by node: the objects it points to
	copyTo  [][]int        // node → nodes that hold at least what it holds
	ntype   []types.Type   // node → the type of its value; nil for the analysis's own nodes
	loads   [][]int        // address node → nodes loaded from what it points to
	stores  [][]int        // address node → nodes stored into what it points to
	fields  [][]fieldEdge  // struct pointer node → field address nodes
	content map[int]int    // object → the node of what is stored in it
	derived map[[2]int]int // (object, field; -1 for elements) → object
	nobj    int
	depth   map[int]int // a derived object's depth: a field of a field of ...
	work    []int
	delta   []map[int]bool // by node: objects not yet propagated
	returns map[resultKey]int
	parts   map[ssa.Value]map[resultKey]int // a call's results, for a tuple
	budget  *budget
	// objType is the type of each object of a named struct type: an
	// allocation's, a field's; byType, built once solved, lists the
	// objects of each unexported type of the program's own packages
	// (ownTypes), which nothing else can allocate.
	objType map[int]types.Type
	ownPkgs map[*types.Package]bool
	byType  map[string]map[int]bool
	// globals is the object of each package variable; binds, for each
	// closure's object, the nodes of the values it captures: what the
	// escape analysis (escape.go) starts from and follows.
	globals []int
	binds   map[int][]int
	// boxes is the box of each type of value an interface holds
	// (boxOf), boxed the boxes; backing, the objects make makes (a
	// slice's array, a map, a channel), never a method's receiver.
	// fnOf is the function each function value's object runs (a
	// function literal's, a function's used as a value; funcs holds
	// the latter): what a call of the value can enter.
	fnOf    map[int]*ssa.Function
	funcs   map[*ssa.Function]int
	boxes   map[string]int
	boxed   map[int]bool
	backing map[int]bool
	// ext is the objects dependencies return, and the calls that do.
	ext      map[int][]ssa.CallInstruction
	extByKey map[any]int
	// depFresh says whether a dependency's function returns, in a
	// result, only what each call allocates (depfresh.go): its objects
	// are then one per call site, not one per type.
	depFresh func(fn *ssa.Function, i int) bool
	// factory says whether a function's calls get copies of its body
	// (pointsclone.go); frames is the copies being built, by function;
	// extra, the nodes of each value's copies; cloned, the instructions
	// copied so far.
	factory func(fn *ssa.Function) bool
	frames  map[*ssa.Function]*cloneFrame
	extra   map[ssa.Value][]int
	cloned  int
	unions  map[ssa.Value]map[int]bool // unionOf, memoised once solved
}

type fieldEdge struct {
	field int
	dst   int
	typ   types.Type // the field's type; nil for elements
}

// newPoints builds and solves the constraints of fns, with calls resolved
// by callees.
func newPoints(fns []*ssa.Function, callees func(*ssa.Function, ssa.CallInstruction) []*ssa.Function, depFresh func(*ssa.Function, int) bool, factory func(*ssa.Function) bool, b *budget) *points {
	p := &points{budget: b, depFresh: depFresh, factory: factory, frames: map[*ssa.Function]*cloneFrame{}, extra: map[ssa.Value][]int{}, unions: map[ssa.Value]map[int]bool{}, nodes: map[ssa.Value]int{}, content: map[int]int{}, derived: map[[2]int]int{}, returns: map[resultKey]int{}, parts: map[ssa.Value]map[resultKey]int{}, depth: map[int]int{}, objType: map[int]types.Type{}, ownPkgs: map[*types.Package]bool{}, binds: map[int][]int{}, ext: map[int][]ssa.CallInstruction{}, extByKey: map[any]int{}, boxes: map[string]int{}, boxed: map[int]bool{}, backing: map[int]bool{}, fnOf: map[int]*ssa.Function{}, funcs: map[*ssa.Function]int{}}
	for _, fn := range fns {
		if fn.Pkg != nil {
			p.ownPkgs[fn.Pkg.Pkg] = true
		}
		p.function(fn, callees)
	}
	p.solve()
	p.byType = map[string]map[int]bool{}
	for obj, t := range p.objType {
		if k := p.ownType(t); k != "" {
			if p.byType[k] == nil {
				p.byType[k] = map[int]bool{}
			}
			p.byType[k][obj] = true
		}
	}
	return p
}

func (p *points) node(v ssa.Value) int {
	if f := p.frameOf(v); f != nil {
		return p.frameNode(f, v)
	}
	if n, ok := p.nodes[v]; ok {
		return n
	}
	n := p.newNode()
	p.nodes[v] = n
	p.ntype[n] = v.Type()
	return n
}

func (p *points) newNode() int {
	p.sets = append(p.sets, nil)
	p.delta = append(p.delta, nil)
	p.copyTo = append(p.copyTo, nil)
	p.ntype = append(p.ntype, nil)
	p.loads = append(p.loads, nil)
	p.stores = append(p.stores, nil)
	p.fields = append(p.fields, nil)
	return len(p.sets) - 1
}

func (p *points) newObject() int {
	p.nobj++
	return p.nobj
}

func (p *points) contentOf(obj int) int {
	n, ok := p.content[obj]
	if !ok {
		n = p.newNode()
		p.content[obj] = n
	}
	return n
}

// derivedOf is the object of a field (or the elements) of obj. Past
// maxDepth nested fields, obj stands for its own fields, so that
// imprecise flows cannot derive objects without end.
func (p *points) derivedOf(obj, field int, typ types.Type) int {
	if obj == unknownObj {
		return unknownObj
	}
	if p.depth[obj] >= maxDepth {
		return obj
	}
	k := [2]int{obj, field}
	o, ok := p.derived[k]
	if !ok {
		o = p.newObject()
		p.derived[k] = o
		p.depth[o] = p.depth[obj] + 1
		if t := partType(p.objType[obj], field); t != nil {
			p.objType[o] = t
		}
	}
	return o
}

// partType is the type of field f (-1: an element, an entry, what a
// channel holds) of an object of type t, nil if t does not say. It is
// the parent's type that says, not the access that first reached the
// part: which access comes first varies with the solver's order, and
// the part's type decides what may flow into it (canHold).
func partType(t types.Type, f int) types.Type {
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if f >= 0 && f < u.NumFields() {
			return u.Field(f).Type()
		}
	case *types.Array:
		if f < 0 {
			return u.Elem()
		}
	case *types.Map:
		if f < 0 {
			return u.Elem()
		}
	case *types.Chan:
		if f < 0 {
			return u.Elem()
		}
	}
	return nil
}

// unknownObj stands for "any object": what a node holds once it would
// hold more than maxObjects allocations. It aliases everything.
const unknownObj = 0

// externalObj stands for code outside the program: a function a
// library's user passes an exported method (db.Update(fn)). Calling it
// runs none of the library's functions: the literals the library makes
// reach such a method only through the library's own calls, in their
// contexts. Only a root's entry gives it (roots.go).
const externalObj = -1

// Bounds of the analysis: past them it says "unknown", which costs
// precision (an access may then race with any of its type), never a
// finding's truth. A protocol's message interface holds one object per
// kind of message a program sends, often more than thirty (AMQP's and
// Kafka's requests): a set that gave up at 32 made a send enter the
// encoder of every kind the reader parses (fixture manykinds). At 128
// nats-server's run costs the same time and memory.
const (
	maxObjects = 128
	maxDepth   = 4
)

// returnOf is the node of fn's result i.
func (p *points) returnOf(fn *ssa.Function, i int) int {
	if f := p.frames[fn]; f != nil {
		return p.frameReturn(f, i)
	}
	k := resultKey{fn, i}
	n, ok := p.returns[k]
	if !ok {
		n = p.newNode()
		p.returns[k] = n
	}
	return n
}

// resultKey names a function's result i (the points-to analysis's node
// of it; whether it is fresh, objects.go).
type resultKey struct {
	fn *ssa.Function
	i  int
}

// resultOf is the node of a call's result i: the call's own node for a
// single result, one node per result for a tuple (what Extract reads),
// so that an error a call returns is not taken for its other result.
func (p *points) resultOf(v ssa.Value, i int) int {
	if _, tuple := v.Type().(*types.Tuple); !tuple {
		return p.node(v)
	}
	parts := p.parts
	if f := p.frameOf(v); f != nil {
		parts = f.parts // a copy's own (pointsclone.go)
	}
	k := resultKey{nil, i}
	if parts[v] == nil {
		parts[v] = map[resultKey]int{}
	}
	n, ok := parts[v][k]
	if !ok {
		n = p.newNode()
		p.ntype[n] = v.Type().(*types.Tuple).At(i).Type()
		parts[v][k] = n
	}
	return n
}

// add puts obj in node n's set; a set that grows past maxObjects
// becomes {unknownObj}.
func (p *points) add(n, obj int) {
	if p.sets[n][obj] || p.sets[n][unknownObj] || !p.canHold(p.ntype[n], obj) {
		return
	}
	if len(p.sets[n]) >= maxObjects {
		obj = unknownObj
		p.sets[n] = nil
	}
	if p.sets[n] == nil {
		p.sets[n] = map[int]bool{}
	}
	p.sets[n][obj] = true
	if p.delta[n] == nil {
		p.delta[n] = map[int]bool{}
		p.work = append(p.work, n)
	}
	p.delta[n][obj] = true
}

// funcObj is the object of a function used as a value (one per
// function).
func (p *points) funcObj(f *ssa.Function) int {
	if o, ok := p.funcs[f]; ok {
		return o
	}
	o := p.newObject()
	p.objType[o] = f.Signature
	p.fnOf[o] = f
	p.funcs[f] = o
	return o
}

// boxOf is the object standing for every value of type t (no pointer)
// an interface holds: one per type.
func (p *points) boxOf(t types.Type) int {
	k := types.TypeString(t, nil)
	if o, ok := p.boxes[k]; ok {
		return o
	}
	o := p.newObject()
	p.objType[o] = t
	p.boxes[k] = o
	p.boxed[o] = true
	return o
}

// canHold reports whether a value of type t can point into obj, as far
// as their types tell: a pointer to T only into T's objects (or, past
// maxDepth, an object standing for its fields), a slice only into arrays
// of its elements, a number into nothing. Imprecise flows (a struct
// value stored whole, an interface call's arguments) then cannot put a
// connection where a byte slice is.
func (p *points) canHold(t types.Type, obj int) bool {
	if t == nil || obj == unknownObj {
		return true
	}
	if p.boxed[obj] {
		_, iface := t.Underlying().(*types.Interface)
		return iface // a boxed value is reached only through interfaces
	}
	ot, known := p.objType[obj]
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Pointer:
		if !known || p.depth[obj] >= maxDepth {
			return true
		}
		if _, isIface := u.Elem().Underlying().(*types.Interface); isIface {
			return true
		}
		return types.Identical(ot.Underlying(), u.Elem().Underlying())
	case *types.Slice:
		if !known {
			return true
		}
		arr, ok := ot.Underlying().(*types.Array)
		return ok && types.Identical(arr.Elem(), u.Elem())
	}
	return true
}

// flow makes dst hold at least what src holds.
func (p *points) flow(src, dst int) {
	if src == dst {
		return
	}
	p.copyTo[src] = append(p.copyTo[src], dst)
	for _, obj := range sortedObjs(p.sets[src]) {
		p.add(dst, obj)
	}
}

// pointee is the named struct type a value of type t points to, which
// the objects it holds must be; nil if t is no pointer to one.
func pointee(t types.Type) types.Type {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	if _, ok := types.Unalias(ptr.Elem()).(*types.Named); !ok {
		return nil
	}
	if _, ok := ptr.Elem().Underlying().(*types.Struct); !ok {
		return nil
	}
	return ptr.Elem()
}

func (p *points) solve() {
	for len(p.work) > 0 && p.budget.step() {
		n := p.work[len(p.work)-1]
		p.work = p.work[:len(p.work)-1]
		d := p.delta[n]
		p.delta[n] = nil
		for _, obj := range sortedObjs(d) {
			for _, dst := range p.copyTo[n] {
				p.add(dst, obj)
			}
			for _, dst := range p.loads[n] {
				p.flow(p.contentOf(obj), dst)
			}
			for _, src := range p.stores[n] {
				p.flow(src, p.contentOf(obj))
			}
			for _, fe := range p.fields[n] {
				p.add(fe.dst, p.derivedOf(obj, fe.field, fe.typ))
			}
		}
	}
}

// load: dst gets what is stored where addr points.
func (p *points) load(addr, dst int) {
	p.loads[addr] = append(p.loads[addr], dst)
	for _, obj := range sortedObjs(p.sets[addr]) {
		p.flow(p.contentOf(obj), dst)
	}
}

// store: what src holds is stored where addr points.
func (p *points) store(addr, src int) {
	p.stores[addr] = append(p.stores[addr], src)
	for _, obj := range sortedObjs(p.sets[addr]) {
		p.flow(src, p.contentOf(obj))
	}
}

// field: dst is the address of field f of what x points to; typ is the
// field's type (nil for elements).
func (p *points) field(x, f, dst int, typ types.Type) {
	p.fields[x] = append(p.fields[x], fieldEdge{f, dst, typ})
	for _, obj := range sortedObjs(p.sets[x]) {
		p.add(dst, p.derivedOf(obj, f, typ))
	}
}

// function adds the constraints of fn's body.
func (p *points) function(fn *ssa.Function, callees func(*ssa.Function, ssa.CallInstruction) []*ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			p.instruction(fn, instr, callees)
		}
	}
}

// instruction adds the constraints of one instruction.
// Long: one case per kind of SSA instruction that moves pointers.
func (p *points) instruction(fn *ssa.Function, instr ssa.Instruction, callees func(*ssa.Function, ssa.CallInstruction) []*ssa.Function) {
	switch x := instr.(type) {
	case *ssa.Alloc:
		obj := p.newObject()
		p.objType[obj] = x.Type().(*types.Pointer).Elem()
		p.add(p.node(x), obj)
	case *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeChan:
		obj := p.newObject()
		p.backing[obj] = true
		t := x.(ssa.Value).Type()
		if sl, ok := t.Underlying().(*types.Slice); ok {
			t = types.NewArray(sl.Elem(), 0) // the slice's array, of unknown length
		}
		p.objType[obj] = t
		p.add(p.node(x.(ssa.Value)), obj)
	case *ssa.MakeClosure:
		obj := p.newObject()
		p.objType[obj] = x.Type() // its signature: a call through an interface enters only a func type's method
		if f, ok := x.Fn.(*ssa.Function); ok {
			p.fnOf[obj] = f
		}
		p.add(p.node(x), obj)
		if f, ok := x.Fn.(*ssa.Function); ok {
			for i, b := range x.Bindings {
				if i < len(f.FreeVars) {
					p.flow(p.value(b), p.node(f.FreeVars[i]))
				}
				p.binds[obj] = append(p.binds[obj], p.value(b))
			}
		}
	case *ssa.FieldAddr:
		p.field(p.value(x.X), x.Field, p.node(x), x.Type().(*types.Pointer).Elem())
	case *ssa.IndexAddr:
		p.field(p.value(x.X), -1, p.node(x), x.Type().(*types.Pointer).Elem())
	case *ssa.UnOp:
		switch x.Op {
		case token.MUL:
			p.load(p.value(x.X), p.node(x))
			p.structFields(x.X, x.Type(), func(n int) { p.load(n, p.node(x)) })
		case token.ARROW:
			p.field(p.value(x.X), -1, p.tmp(func(n int) { p.load(n, p.node(x)) }), nil)
		}
	case *ssa.Store:
		p.store(p.value(x.Addr), p.value(x.Val))
		p.structFields(x.Addr, x.Val.Type(), func(n int) { p.store(n, p.value(x.Val)) })
	case *ssa.Field:
		p.flow(p.value(x.X), p.node(x)) // a struct value holds what its fields do
	case *ssa.Index:
		p.flow(p.value(x.X), p.node(x))
	case *ssa.MapUpdate:
		p.field(p.value(x.Map), -1, p.tmp(func(n int) { p.store(n, p.value(x.Value)) }), nil)
	case *ssa.Lookup:
		if _, ok := x.X.Type().Underlying().(*types.Map); ok {
			p.field(p.value(x.X), -1, p.tmp(func(n int) { p.load(n, p.node(x)) }), nil)
		}
	case *ssa.Range:
		p.flow(p.value(x.X), p.node(x)) // the iterator points into the map
	case *ssa.Next:
		if !x.IsString {
			// The tuple holds (field-insensitively) the keys and values
			// stored in the map, as a lookup does.
			p.field(p.value(x.Iter), -1, p.tmp(func(n int) { p.load(n, p.node(x)) }), nil)
		}
	case *ssa.Select:
		// The tuple holds what each receiving case receives (field-
		// insensitively); each sending case stores into its channel.
		for _, st := range x.States {
			if st.Dir == types.RecvOnly {
				p.field(p.value(st.Chan), -1, p.tmp(func(n int) { p.load(n, p.node(x)) }), nil)
			} else if st.Send != nil {
				p.field(p.value(st.Chan), -1, p.tmp(func(n int) { p.store(n, p.value(st.Send)) }), nil)
			}
		}
	case *ssa.Send:
		p.field(p.value(x.Chan), -1, p.tmp(func(n int) { p.store(n, p.value(x.X)) }), nil)
	case *ssa.Phi:
		for _, e := range x.Edges {
			p.flow(p.value(e), p.node(x))
		}
	case *ssa.TypeAssert:
		p.flow(p.value(x.X), p.node(x)) // the node's type lets only *T's objects in (canHold)
	case *ssa.Extract:
		if _, call := x.Tuple.(*ssa.Call); call {
			p.flow(p.resultOf(x.Tuple, x.Index), p.node(x))
			return
		}
		p.flow(p.value(x.Tuple), p.node(x))
	case *ssa.ChangeType, *ssa.Convert, *ssa.ChangeInterface, *ssa.MakeInterface, *ssa.Slice:
		// A value made from its first operand holds what that holds; a
		// number (a pointer made a uintptr, unsafe's arithmetic) holds
		// nothing. An interface made from a value that is no pointer
		// also holds that value's box, of its type: what a call
		// through the interface can enter (analysis.go, targets).
		if !holdsPointers(x.(ssa.Value).Type()) {
			return
		}
		if mi, ok := x.(*ssa.MakeInterface); ok {
			if _, ptr := mi.X.Type().Underlying().(*types.Pointer); !ptr {
				p.add(p.node(mi), p.boxOf(mi.X.Type()))
			}
		}
		if ops := instr.Operands(nil); len(ops) > 0 && *ops[0] != nil {
			p.flow(p.value(*ops[0]), p.node(x.(ssa.Value)))
		}
	case *ssa.Return:
		for i, r := range x.Results {
			p.flow(p.value(r), p.returnOf(fn, i))
		}
	case ssa.CallInstruction:
		p.call(fn, x, callees)
	}
}

// structFields wires, when t (the type of what addr points to) is a
// struct, each field's address node to set: a struct value is loaded
// and stored whole, and holds (field-insensitively) what its fields
// point to, so that a pointer inside a struct sent on a channel or kept
// in a slice is not lost.
func (p *points) structFields(addr ssa.Value, t types.Type, set func(n int)) {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		p.field(p.value(addr), i, p.tmp(set), st.Field(i).Type())
	}
}

// tmp is a fresh node handed to set, which wires it.
func (p *points) tmp(set func(n int)) int {
	n := p.newNode()
	set(n)
	return n
}

// value is v's node; a global's node points to the global's own object.
func (p *points) value(v ssa.Value) int {
	if p.frameOf(v) != nil {
		return p.node(v)
	}
	n, seen := p.nodes[v]
	if !seen {
		n = p.node(v)
		switch x := v.(type) {
		case *ssa.Global:
			obj := p.newObject()
			p.objType[obj] = x.Type().(*types.Pointer).Elem()
			p.globals = append(p.globals, obj)
			p.add(n, obj)
		case *ssa.Function:
			p.add(n, p.funcObj(x)) // a function used as a value
		}
	}
	return n
}

// call passes the arguments to each callee's parameters (and free
// variables, for a closure called directly) and its results back.
func (p *points) call(fn *ssa.Function, site ssa.CallInstruction, callees func(*ssa.Function, ssa.CallInstruction) []*ssa.Function) {
	c := site.Common()
	args := c.Args
	if c.IsInvoke() {
		args = append([]ssa.Value{c.Value}, args...)
	}
	followed := false
	for _, callee := range callees(fn, site) {
		if callee.Blocks == nil {
			continue
		}
		followed = true
		if p.clones(callee) {
			p.cloneCall(site, callee, args, callees)
			continue
		}
		for i, a := range args {
			if i >= len(callee.Params) {
				continue
			}
			// A receiver's node takes only its implementation's own
			// objects (canHold): an interface call passes it every one.
			p.flow(p.value(a), p.node(callee.Params[i]))
		}
		if v := site.Value(); v != nil {
			for i := range callee.Signature.Results().Len() {
				p.flow(p.returnOf(callee, i), p.resultOf(v, i))
			}
		}
	}
	if _, builtin := c.Value.(*ssa.Builtin); !followed && !builtin {
		if v := site.Value(); v != nil {
			for i := range c.Signature().Results().Len() {
				if t := c.Signature().Results().At(i).Type(); holdsPointers(t) {
					p.add(p.resultOf(v, i), p.external(site, i, t))
				}
			}
		}
	}
	if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(args) > 0 {
		// The result is the old backing array or a new one holding the
		// elements appended: it points into both slices' arrays.
		if v := site.Value(); v != nil {
			for _, a := range args {
				if _, ok := a.Type().Underlying().(*types.Slice); ok {
					p.flow(p.value(a), p.node(v))
				}
			}
		}
	}
}

// external is the object a call into code without a body here (a
// dependency) returns: one per type for a pointer to a named struct
// (two calls may return the same one), else, or where the dependency's
// source says each call allocates it, one per call. The escape
// analysis decides whether it is shared (escape.go); ext records the
// calls that return each.
func (p *points) external(site ssa.CallInstruction, i int, t types.Type) int {
	key := any(extKey{site, i})
	elem := pointee(t)
	if callee := site.Common().StaticCallee(); elem != nil && (callee == nil || !p.depFresh(callee, i)) {
		key = types.TypeString(elem, nil)
	}
	if o, ok := p.extByKey[key]; ok {
		p.ext[o] = append(p.ext[o], site)
		return o
	}
	o := p.newObject()
	if elem != nil {
		p.objType[o] = elem
	}
	p.extByKey[key] = o
	p.ext[o] = []ssa.CallInstruction{site}
	return o
}

type extKey struct {
	site ssa.CallInstruction
	i    int
}
